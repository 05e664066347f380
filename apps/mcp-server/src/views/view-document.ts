import type { ToolView } from '@paper/contracts';
import fs from 'node:fs';
import path from 'node:path';

const BROWSER_DIR = path.join(__dirname, 'browser');

/**
 * The script of every view: `browser/views.bundle.ts` bundled with its dependencies (the ext-apps `App`
 * client) into one file. The build writes it as `views.bundle.js` beside the compiled server code;
 * running from the TypeScript sources (`nx serve`, unit tests), it is bundled here once, at start-up,
 * with the build's own bundler.
 */
function viewScript(): string {
  const built = path.join(BROWSER_DIR, 'views.bundle.js');
  if (fs.existsSync(built)) return fs.readFileSync(built, 'utf8');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- development only: the build ships the bundle
  const bundler = require(path.join(__dirname, '..', '..', '..', '..', 'tools', 'dev', 'browser-bundle.cjs')) as {
    bundleBrowserScript(entry: string): string;
  };
  return bundler.bundleBrowserScript(path.join(BROWSER_DIR, 'views.bundle.ts'));
}

/** Text placed inside a <script> or <style> element may not close it early. */
function inert(text: string, element: 'script' | 'style'): string {
  return text.replace(new RegExp(`</(${element})`, 'gi'), '<\\/$1');
}

/**
 * The self-contained HTML documents of the views (MCP Apps, `text/html;profile=mcp-app`), by view:
 * styles and script inline, nothing loaded from anywhere else; the script reads `data-view` to know
 * what to draw. The documents are ASCII (the bundle escapes other characters), which halves what
 * they hold in memory.
 */
export function viewDocuments(views: readonly { view: ToolView; title: string }[]): Map<ToolView, string> {
  const script = viewScript();
  const style = fs.readFileSync(path.join(BROWSER_DIR, 'views.css'), 'utf8');
  return new Map(views.map(({ view, title }) => [view, viewDocument(view, title, script, style)]));
}

function viewDocument(view: ToolView, title: string, script: string, style: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${title} &middot; Paper Perps</title>`,
    `<style>${inert(style, 'style')}</style>`,
    '</head>',
    `<body data-view="${view}">`,
    `<main id="view" aria-live="polite"><p class="muted">Waiting for the result of the tool&hellip;</p></main>`,
    `<script>${inert(script, 'script')}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
}
