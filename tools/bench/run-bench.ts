import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { WORKSPACE_ROOT } from '@paper/dev-stack';

/**
 * Runs a benchmark's main and ends the process with its outcome: 0 once the report is printed and the
 * benchmark's stack is stopped, 1 with the error otherwise. A benchmark is a script, so a client handle
 * left open in a library (a keep-alive socket, a Redis connection) must not keep it running.
 */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * Builds the apps into dist/bench-<pid> (removed when the process exits) and points the stack helpers at
 * that build (STACK_DIST_DIR). Returns the directory.
 */
export function buildBenchDist(): string {
  const distDir = path.join(WORKSPACE_ROOT, 'dist', `bench-${process.pid}`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildAll } = require('../dev/build-app.cjs') as { buildAll(dir: string): unknown };
  process.once('exit', () => fs.rmSync(distDir, { recursive: true, force: true }));
  buildAll(distDir);
  process.env['STACK_DIST_DIR'] = distDir;
  return distDir;
}

/**
 * Pins processes (all their threads) to one CPU with taskset, when the machine has it and two CPUs:
 * the compared servers then share one core and the load generator keeps the other, so neither server
 * profits from a quieter core. Returns whether pinning happened.
 */
export function pinToCpus(pids: number[], cpus: string): boolean {
  try {
    for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
