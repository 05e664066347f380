import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** True when something accepts TCP connections at host:port within the timeout. */
export function isReachable(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function waitReachable(host: string, port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isReachable(host, port, 500)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

export class MissingServiceError extends Error {}

/** A local server that ensurePostgres/ensureRedis started (rather than found running). */
export interface StartedService {
  name: string;
  stop(): Promise<void>;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Uses a running PostgreSQL; otherwise starts the local cluster if its binaries are there. Resolves to
 * the started server (so the caller can stop it again), or undefined when one was already running.
 */
export async function ensurePostgres(url: string, log: (line: string) => void): Promise<StartedService | undefined> {
  const { hostname, port } = new URL(url);
  const pgPort = Number(port || 5432);
  if (await isReachable(hostname, pgPort)) return undefined;
  if (LOCAL_HOSTS.has(hostname) && hasCommand('pg_ctlcluster') && fs.existsSync('/etc/postgresql')) {
    const versions = fs.readdirSync('/etc/postgresql');
    for (const version of versions) {
      log(`starting PostgreSQL ${version} (pg_ctlcluster)`);
      spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
    }
    if (await waitReachable(hostname, pgPort, 20000)) {
      return {
        name: 'PostgreSQL',
        stop: async () => {
          for (const version of versions)
            spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'stop'], { stdio: 'ignore' });
        },
      };
    }
  }
  throw new MissingServiceError(
    `PostgreSQL is not reachable at ${hostname}:${pgPort} and could not be started.\n` +
      '  Install and start it, for example:\n' +
      '    Debian/Ubuntu: sudo apt-get install -y postgresql && sudo pg_ctlcluster --skip-systemctl-redirect $(ls ' +
      '/etc/postgresql) main start\n' +
      '    macOS (Homebrew): brew install postgresql@16 && brew services start postgresql@16\n' +
      '  The stack connects as the user in DATABASE_URL (default postgres, no password, over TCP 127.0.0.1:5432). ' +
      "Debian's\n" +
      '  package asks TCP clients for a password: either give postgres one (sudo -u postgres psql -c "ALTER USER ' +
      'postgres\n' +
      "  PASSWORD 'secret'\") and set DATABASE_URL=postgres://postgres:secret@127.0.0.1:5432/paper (and\n" +
      '  TEST_DATABASE_ADMIN_URL=postgres://postgres:secret@127.0.0.1:5432/postgres for the tests), or allow local\n' +
      '  connections without one ("host all all 127.0.0.1/32 trust" in pg_hba.conf) on a development machine.\n' +
      '  Any server works when DATABASE_URL names a user that may create databases.',
  );
}

/** Sends SHUTDOWN NOSAVE to a Redis server over its own protocol (no redis-cli needed). */
function shutdownRedis(host: string, port: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port }, () => socket.write('*2\r\n$8\r\nSHUTDOWN\r\n$6\r\nNOSAVE\r\n'));
    socket.setTimeout(2000, () => socket.destroy());
    socket.once('close', () => resolve());
    socket.once('error', () => resolve());
  });
}

/**
 * Uses a running Redis; otherwise starts a local non-persistent one if redis-server is installed.
 * Resolves to the started server, or undefined when one was already running.
 */
export async function ensureRedis(url: string, log: (line: string) => void): Promise<StartedService | undefined> {
  const { hostname, port } = new URL(url);
  const redisPort = Number(port || 6379);
  if (await isReachable(hostname, redisPort)) return undefined;
  if (LOCAL_HOSTS.has(hostname) && hasCommand('redis-server')) {
    log('starting Redis (redis-server, no persistence)');
    execFileSync('redis-server', [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '--port',
      String(redisPort),
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    if (await waitReachable(hostname, redisPort, 10000))
      return { name: 'Redis', stop: () => shutdownRedis('127.0.0.1', redisPort) };
  }
  throw new MissingServiceError(
    `Redis is not reachable at ${hostname}:${redisPort} and could not be started.\n` +
      '  Install it, for example: sudo apt-get install -y redis-server (Debian/Ubuntu) or brew install redis ' +
      '(macOS);\n' +
      '  npm start and npm test then start it themselves; or point REDIS_URL at a running server.',
  );
}
