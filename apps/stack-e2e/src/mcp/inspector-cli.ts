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
