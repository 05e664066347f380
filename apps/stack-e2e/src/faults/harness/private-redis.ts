import { freePort, waitReachable } from '@paper/dev-stack';
import { type ChildProcess, spawn } from 'node:child_process';

/** A redis-server of the fault suite's own (never the shared one), without persistence. */
export interface PrivateRedis {
  url: string;
  port: number;
  /** Kills the server (SIGKILL): everything in it is gone. */
  kill(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
  /** kill() then start(): a restart without persistence. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
      { stdio: 'ignore' },
    );
    if (!(await waitReachable('127.0.0.1', port, 10_000))) throw new Error(`redis-server did not listen on ${port}`);
  };
  const kill = async (): Promise<void> => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    restart: async () => {
      await kill();
      await start();
    },
    stop: kill,
  };
}
