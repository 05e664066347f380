import { execFile } from 'node:child_process';
import path from 'node:path';
import { WORKSPACE_ROOT } from '@paper/dev-stack';

/**
 * The MCP Inspector's CLI mode: `npx @modelcontextprotocol/inspector --cli <url> ...` hands its arguments
 * to the @modelcontextprotocol/inspector-cli program, run here directly. It runs from its own build
 * directory because the v1 CLI finds its package.json relative to the working directory.
 */
const INSPECTOR_CLI_DIR = path.join(WORKSPACE_ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build');

export interface InspectorRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `inspector --cli <url> --transport http <args...>`: prints the JSON result on stdout. */
export function runInspectorCli(url: string, args: string[], timeoutMs = 60000): Promise<InspectorRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(INSPECTOR_CLI_DIR, 'index.js'), url, '--transport', 'http', ...args],
      { cwd: INSPECTOR_CLI_DIR, timeout: timeoutMs },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The MCP Inspector's current line (2.x, installed as `mcp-inspector-next` beside the 1.x CLI above). */
const INSPECTOR_LAUNCHER = path.join(
  WORKSPACE_ROOT,
  'node_modules',
  'mcp-inspector-next',
  'clients',
  'launcher',
  'build',
  'index.js',
);

/** `mcp-inspector --cli <url> --transport http --protocol-era <era> --format json <args...>` (Inspector 2.x). */
export function runInspector2Cli(
  url: string,
  era: 'legacy' | 'auto' | 'modern',
  args: string[],
  timeoutMs = 60000,
): Promise<InspectorRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR_LAUNCHER, '--cli', url, '--transport', 'http', '--protocol-era', era, '--format', 'json', ...args],
      { timeout: timeoutMs },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
