import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WORKSPACE_ROOT } from '@paper/dev-stack';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import type { RenderRequest } from './browser/test-host.bundle';

/**
 * The CSP the sandbox applies for a resource whose allow-lists are empty (MCP Apps' restrictive default, plus no
 * frames, objects or foreign base URIs).
 */
export const EMPTY_ALLOW_LIST_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
].join('; ');

/**
 * The sandbox proxy (MCP Apps, web hosts): on its own origin, it receives the view's HTML from the host
 * (`ui/notifications/sandbox-resource-ready`), writes it into an inner frame that inherits this page's
 * CSP, and relays every other message between the host and the view.
 */
function sandboxPage(hostOrigin: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style></head><body>
<script>
const HOST = ${JSON.stringify(hostOrigin)};
const inner = document.createElement('iframe');
inner.setAttribute('sandbox', 'allow-scripts allow-same-origin');
inner.title = 'view';
document.body.appendChild(inner);
window.addEventListener('message', (event) => {
  if (event.source === window.parent) {
    if (event.origin !== HOST) return;
    if (event.data && event.data.method === 'ui/notifications/sandbox-resource-ready') {
      const doc = inner.contentDocument;
      doc.open();
      doc.write(event.data.params.html);
      doc.close();
    } else {
      inner.contentWindow.postMessage(event.data, '*');
    }
  } else if (event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, HOST);
  }
});
window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, HOST);
</script></body></html>`;
}

function hostPage(script: string, theme: 'light' | 'dark'): string {
  const [background, text] = theme === 'dark' ? ['#0d0f13', '#e8eaee'] : ['#f6f7f9', '#16181d'];
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>MCP Apps host</title><style>
body{margin:0;padding:16px;background:${background};color:${text};font-family:system-ui,sans-serif;color-scheme:${theme}}
#conversation iframe{border:0;width:100%;display:block;border-radius:12px}
</style></head><body><div id="conversation"></div><script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface ToolCallRecord {
  name: string;
  arguments: Record<string, unknown>;
}

export interface RenderedView {
  page: Page;
  context: BrowserContext;
  /** The view's document (inside the sandbox proxy's inner frame). */
  view: FrameLocator;
  /** Tool calls the view made through the host, in order. */
  calls: ToolCallRecord[];
  /** Context updates the view sent for the model. */
  modelContext: string[];
  /** Requests the browser made for anything but the host page and the sandbox page. */
  foreignRequests: string[];
  /** Errors logged by the pages (CSP violations among them). */
  consoleErrors: string[];
  close(): Promise<void>;
}

export interface RenderOptions {
  theme?: 'light' | 'dark';
  width?: number;
  height?: number;
  toolInput: Record<string, unknown>;
  toolResult: CallToolResult;
}

/** The host's two origins (host page, sandbox proxy) served locally, and a way to draw a view in Chromium. */
export class AppHost {
  private hostServer?: Server;
  private sandboxServer?: Server;
  private hostOrigin = '';
  private sandboxOrigin = '';
  private script = '';

  constructor(
    private readonly browser: Browser,
    private readonly client: Client,
  ) {}

  async start(): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { bundleBrowserScript } = require(path.join(WORKSPACE_ROOT, 'tools', 'dev', 'browser-bundle.cjs')) as {
      bundleBrowserScript(entry: string): string;
    };
    this.script = bundleBrowserScript(path.join(__dirname, 'browser', 'test-host.bundle.ts'));
    this.hostServer = http.createServer((req, res) => {
      const theme = new URL(req.url ?? '/', 'http://host').searchParams.get('theme') === 'dark' ? 'dark' : 'light';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(this.script, theme));
    });
    this.sandboxServer = http.createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': EMPTY_ALLOW_LIST_CSP })
        .end(sandboxPage(this.hostOrigin));
    });
    this.hostOrigin = await listen(this.hostServer);
    this.sandboxOrigin = await listen(this.sandboxServer);
  }

  async stop(): Promise<void> {
    for (const server of [this.hostServer, this.sandboxServer]) {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    }
  }

  /** Opens the host page and draws the view of `html` with a tool's input and result, as a chat client does. */
  async render(html: string, csp: Record<string, string[]> | undefined, o: RenderOptions): Promise<RenderedView> {
    const theme = o.theme ?? 'light';
    const context = await this.browser.newContext({
      viewport: { width: o.width ?? 1000, height: o.height ?? 900 },
      colorScheme: theme,
    });
    const page = await context.newPage();
    const calls: ToolCallRecord[] = [];
    const modelContext: string[] = [];
    const foreignRequests: string[] = [];
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(this.hostOrigin) && !url.startsWith(this.sandboxOrigin) && !url.startsWith('about:'))
        foreignRequests.push(url);
    });
    await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
      calls.push({ name: params.name, arguments: params.arguments ?? {} });
      return this.client.callTool({ name: params.name, arguments: params.arguments ?? {} });
    });
    await page.exposeFunction('hostModelContext', (text: string) => void modelContext.push(text));
    await page.goto(`${this.hostOrigin}/?theme=${theme}`);
    const request: RenderRequest = {
      html,
      csp,
      sandboxUrl: `${this.sandboxOrigin}/sandbox.html`,
      theme,
      toolInput: o.toolInput,
      toolResult: o.toolResult,
    };
    await page.evaluate(
      (r) => (window as unknown as { renderView(r: RenderRequest): Promise<void> }).renderView(r),
      request,
    );
    const view = page.frameLocator('iframe[title="MCP App view"]').frameLocator('iframe[title="view"]');
    return {
      page,
      context,
      view,
      calls,
      modelContext,
      foreignRequests,
      consoleErrors,
      close: () => context.close(),
    };
  }
}
