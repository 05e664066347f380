/**
 * `npm start`'s command as a person runs it: it migrates and seeds an empty database, starts every app,
 * prints the URLs, serves both base URLs, and Ctrl-C (SIGINT) stops every process it started.
 */
import {
  createTestDatabase,
  freePort,
  STACK_APPS,
  type TestDatabase,
  testDistDir,
  testRedisUrl,
  WORKSPACE_ROOT,
} from '@paper/dev-stack';
import { type ChildProcess, spawn } from 'node:child_process';

async function closed(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/livez`, { signal: AbortSignal.timeout(1000) });
    return false;
  } catch {
    return true;
  }
}

describe('npm start', () => {
  let database: TestDatabase;
  let child: ChildProcess;
  let output = '';
  let basePort: number;
  let alertsPort: number;
  let offset: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    [basePort, alertsPort] = [await freePort(), await freePort()];
    // the apps' fixed local ports, moved out of the way of a developer's own `npm start`
    offset = 20000 + (basePort % 500) * 10;
    child = spawn(process.execPath, ['-r', './tools/dev/register.cjs', 'tools/dev/start.ts'], {
      cwd: WORKSPACE_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: `start${basePort}`,
        BASE_PORT: String(basePort),
        ALERTS_PORT: String(alertsPort),
        APP_PORT_OFFSET: String(offset),
        STACK_DIST_DIR: testDistDir(),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start did not finish starting:\n${output.slice(-3000)}`)),
        150000,
      );
      const check = setInterval(() => {
        if (output.includes('Ctrl-C stops everything.')) {
          clearTimeout(timer);
          clearInterval(check);
          resolve();
        }
      }, 100);
      child.once('exit', (code) => {
        clearTimeout(timer);
        clearInterval(check);
        reject(new Error(`npm start exited with ${code}:\n${output.slice(-3000)}`));
      });
    });
  }, 180000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await database?.drop();
  });

  it('migrates and seeds, then prints both base URLs', () => {
    expect(output).toContain('applying migrations');
    expect(output).toContain('demo data:');
    expect(output).toContain(`http://localhost:${basePort}/api/v1/tools`);
    expect(output).toContain(`http://localhost:${basePort}/mcp`);
    expect(output).toContain(`http://localhost:${alertsPort}/api/status`);
  });

  it('serves the seeded exchange through the base URL and the alerts service through its own', async () => {
    const board = (await (
      await fetch(`http://localhost:${basePort}/api/v1/tools/get_leaderboard?window=all`)
    ).json()) as {
      ok: boolean;
      data: { rows: unknown[] };
    };
    expect(board.ok).toBe(true);
    expect(board.data.rows.length).toBe(25);
    const status = (await (await fetch(`http://localhost:${alertsPort}/api/status`)).json()) as { ready: boolean };
    expect(status.ready).toBe(true);
  });

  it('stops every app and both edges on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const ports = [basePort, alertsPort, ...STACK_APPS.map((a) => a.defaultPort + offset)];
    const stillOpen = [];
    for (const port of ports) if (!(await closed(port))) stillOpen.push(port);
    expect(stillOpen).toEqual([]);
  });
});
