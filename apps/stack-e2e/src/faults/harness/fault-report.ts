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
