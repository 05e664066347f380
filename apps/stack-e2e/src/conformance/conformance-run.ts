import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORKSPACE_ROOT } from '@paper/dev-stack';

/** The two releases of the official suite the CI runs: the stable line and the prerelease that knows 2026-07-28. */
export const SUITES = {
  '2025-11-25': {
    cli: ['@modelcontextprotocol', 'conformance'],
    args: [] as string[],
  },
  '2026-07-28': {
    // @modelcontextprotocol/conformance@0.2.0-alpha.12, installed under this alias beside the stable line.
    cli: ['mcp-conformance-next'],
    args: ['--requirements', '2026-07-28'],
  },
} as const;

export type Revision = keyof typeof SUITES;

export interface ConformanceRun {
  code: number;
  output: string;
  /** `scenario -> passed` from the suite's summary. */
  passed: Record<string, boolean>;
  /** Every check that did not succeed, by scenario: `<status> <check id>: <message>`. */
  problems: Record<string, string[]>;
}

/**
 * The official MCP conformance suite (server mode) against one MCP endpoint, for one revision, with that
 * revision's expected failures (expected-failures-<revision>.yml beside this file, plus the endpoint's
 * own). The suite exits non-zero when a scenario outside the list fails or a listed one passes.
 */
export async function runConformance(
  revision: Revision,
  endpoint: string,
  alsoExpectedToFail: readonly string[] = [],
): Promise<ConformanceRun> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
  try {
    const suite = SUITES[revision];
    const cli = path.join(WORKSPACE_ROOT, 'node_modules', ...suite.cli, 'dist', 'index.js');
    const baseline = path.join(out, 'expected-failures.yml');
    const shared = fs.readFileSync(path.join(__dirname, `expected-failures-${revision}.yml`), 'utf8');
    fs.writeFileSync(baseline, shared.trimEnd() + '\n' + alsoExpectedToFail.map((s) => `  - ${s}\n`).join(''));
    const result = await run(
      [cli, 'server', '--url', endpoint, ...suite.args, '--expected-failures', baseline, '--output-dir', out],
      out,
      240_000,
    );
    const output = `${result.stdout}\n${result.stderr}`;
    const passed: Record<string, boolean> = {};
    for (const [, mark, scenario] of output.matchAll(/^([✓✗]) ([\w-]+): \d+ passed, \d+ failed/gmu))
      passed[scenario!] = mark === '✓';
    return { code: result.code, output, passed, problems: readProblems(out) };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

function run(
  args: string[],
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The checks that failed or warned, from the suite's output directory (one folder of checks.json per scenario). */
function readProblems(out: string): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  for (const entry of fs.readdirSync(out, { withFileTypes: true })) {
    const file = path.join(out, entry.name, 'checks.json');
    if (!entry.isDirectory() || !fs.existsSync(file)) continue;
    const scenario = entry.name.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
    const checks = JSON.parse(fs.readFileSync(file, 'utf8')) as { id: string; status: string; errorMessage?: string }[];
    const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    if (bad.length > 0) problems[scenario] = bad.map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? ''}`);
  }
  return problems;
}
