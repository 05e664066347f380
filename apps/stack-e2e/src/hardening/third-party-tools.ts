import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sourceAddressesEnv, WORKSPACE_ROOT } from '@paper/dev-stack';

function run(
  args: string[],
  cwd: string,
  timeoutMs: number,
  env?: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, env },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

export interface ConformanceRun {
  code: number;
  output: string;
  /** `scenario -> passed` from the suite's summary. */
  passed: Record<string, boolean>;
}

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, server mode) against one MCP
 * endpoint, every active scenario, with the baseline of expected failures (conformance-baseline.yml). Its
 * requests come from 32 loopback addresses in turn (SOURCE_ADDRESSES), so the limits stay at their defaults.
 */
export async function runConformance(
  endpoint: string,
  alsoExpectedToFail: readonly string[] = [],
): Promise<ConformanceRun> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
  try {
    const cli = path.join(WORKSPACE_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    const baseline = path.join(out, 'expected-failures.yml');
    const shared = fs.readFileSync(path.join(__dirname, 'conformance-baseline.yml'), 'utf8');
    fs.writeFileSync(baseline, shared.trimEnd() + '\n' + alsoExpectedToFail.map((s) => `  - ${s}\n`).join(''));
    const result = await run(
      [cli, 'server', '--url', endpoint, '--expected-failures', baseline, '--output-dir', out],
      out,
      180_000,
      sourceAddressesEnv(32, 4000),
    );
    const output = `${result.stdout}\n${result.stderr}`;
    const passed: Record<string, boolean> = {};
    for (const [, mark, scenario] of output.matchAll(/^([✓✗]) ([\w-]+): \d+ passed, \d+ failed/gmu))
      passed[scenario!] = mark === '✓';
    return { code: result.code, output, passed };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

export interface LintResult {
  errors: number;
  warnings: number;
  problems: string[];
}

/** Redocly lint (`@redocly/cli`, its recommended rules, redocly.yaml beside this file) of an OpenAPI document. */
export async function redoclyLint(name: string, document: unknown): Promise<LintResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redocly-'));
  try {
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(document));
    const cli = path.join(WORKSPACE_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const result = await run(
      [cli, 'lint', file, '--format=json', `--config=${path.join(__dirname, 'redocly.yaml')}`],
      dir,
      120_000,
    );
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    return { ...report.totals, problems: report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
