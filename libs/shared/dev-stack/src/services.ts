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

/** Uses a running PostgreSQL; otherwise starts the local cluster if its binaries are there. */
export async function ensurePostgres(url: string, log: (line: string) => void): Promise<void> {
  const { hostname, port } = new URL(url);
  const pgPort = Number(port || 5432);
  if (await isReachable(hostname, pgPort)) return;
  if (hasCommand('pg_ctlcluster') && fs.existsSync('/etc/postgresql')) {
    for (const version of fs.readdirSync('/etc/postgresql')) {
      log(`starting PostgreSQL ${version} (pg_ctlcluster)`);
      spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
    }
    if (await waitReachable(hostname, pgPort, 20000)) return;
  }
  throw new MissingServiceError(
    `PostgreSQL is not reachable at ${hostname}:${pgPort} and could not be started.\n` +
      '  Install and start it, for example on Debian/Ubuntu:\n' +
      '    sudo apt-get install -y postgresql && sudo pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n' +
      '  or point DATABASE_URL at a running server (user with CREATE DATABASE rights).',
  );
}

/** Uses a running Redis; otherwise starts a local non-persistent one if redis-server is installed. */
export async function ensureRedis(url: string, log: (line: string) => void): Promise<void> {
  const { hostname, port } = new URL(url);
  const redisPort = Number(port || 6379);
  if (await isReachable(hostname, redisPort)) return;
  if (hasCommand('redis-server')) {
    log('starting Redis (redis-server, no persistence)');
    execFileSync('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', String(redisPort), '--save', '', '--appendonly', 'no']);
    if (await waitReachable(hostname, redisPort, 10000)) return;
  }
  throw new MissingServiceError(
    `Redis is not reachable at ${hostname}:${redisPort} and could not be started.\n` +
      '  Install it, for example on Debian/Ubuntu: sudo apt-get install -y redis-server\n' +
      '  or point REDIS_URL at a running server.',
  );
}
