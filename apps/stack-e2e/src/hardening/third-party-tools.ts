import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORKSPACE_ROOT } from '@paper/dev-stack';

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
