import fs from 'node:fs';
import path from 'node:path';
import { WORKSPACE_ROOT } from '@paper/dev-stack';

const REPORT = path.join(WORKSPACE_ROOT, 'tmp', 'fault-suite.json');

/**
 * Records an experiment's figures (durations, counts, recovery times) in tmp/fault-suite.json, so a run
 * stays quiet on the console and the measurements can still be read afterwards.
 */
export function recordExperiment(name: string, figures: Record<string, unknown>): void {
  fs.mkdirSync(path.dirname(REPORT), { recursive: true });
  const current = fs.existsSync(REPORT) ? (JSON.parse(fs.readFileSync(REPORT, 'utf8')) as Record<string, unknown>) : {};
  current[name] = { ...figures, at: new Date().toISOString() };
  fs.writeFileSync(REPORT, `${JSON.stringify(current, null, 2)}\n`);
}

/** Polls `check` every 100 ms until it returns a value, or rejects after `timeoutMs` naming `what`. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
