import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Server } from 'node:http';
import { STACK_APPS } from './apps';
import { SERVICE_NODE_OPTIONS } from './node-options';
import { alertsResolver, EDGE_ADDRESS, publicResolver, serverPort, startEdgeProxy } from './edge-proxy';

export interface StackOptions {
  /** Workspace root (holds dist/ and apps/). */
  root: string;
  apps?: readonly string[];
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** 0 picks free ports (tests); otherwise the fixed local ports. */
  basePort: number;
  alertsPort: number;
  randomAppPorts: boolean;
  /** Added to every app's default port when ports are fixed (APP_PORT_OFFSET of `npm start`). */
  appPortOffset?: number;
  /** `dist` runs the SWC build (distDir, default dist/stack); `ts` compiles on load (like `nx serve`). */
  mode: 'dist' | 'ts';
  distDir?: string;
  env?: Record<string, string>;
  /** Directory for one log file per app; without it the last lines are kept in memory. */
  logDir?: string;
  readyTimeoutMs?: number;
}

export interface RunningStack {
  baseUrl: string;
  alertsUrl: string;
  appUrls: Record<string, string>;
  logs(app: string): string;
  /** The process id of a running app (its own Node process). */
  pid(app: string): number | undefined;
  /** Stops one app (SIGTERM, or SIGKILL when `hard`) and resolves when it has exited. */
  stopApp(app: string, hard?: boolean): Promise<number | null>;
  /** Starts a stopped app again with the same environment and waits until it is ready. */
  restartApp(app: string): Promise<void>;
  /**
   * Starts one more replica of an app (same environment, its own port; not behind the edges) and waits
   * until it is ready. Resolves to its name (`<app>#<n>`), which pid, logs, stopApp and restartApp take.
   */
  addReplica(app: string): Promise<string>;
  stop(): Promise<void>;
}

/** Children still running when this process exits are killed with it, so no app outlives its stack. */
const liveChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

/**
 * Ports handed out for test apps and servers: below the kernel's ephemeral range (32768 and up on Linux),
 * so an outgoing connection of a busy test (a thousand event streams) can never take a port between the
 * moment it is found free and the moment its app binds it.
 */
const PORT_RANGE = { first: 20_000, count: 12_000 };

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port free on 127.0.0.1 now, outside the ephemeral range (random, so parallel test files rarely meet). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = PORT_RANGE.first + Math.floor(Math.random() * PORT_RANGE.count);
    if (await tryListen(port)) return port;
  }
  throw new Error('no free port found below the ephemeral range');
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode} before becoming ready`);
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready after ${timeoutMs} ms (last readiness answer: ${last})`);
}

/** Starts the apps as child processes plus the two edge proxies, and waits for every readiness probe. */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const names = options.apps ?? STACK_APPS.map((a) => a.name);
  const ports: Record<string, number> = {};
  for (const app of STACK_APPS)
    ports[app.name] = options.randomAppPorts ? await freePort() : app.defaultPort + (options.appPortOffset ?? 0);
  const appUrls = Object.fromEntries(Object.entries(ports).map(([n, p]) => [n, `http://127.0.0.1:${p}`]));
  const basePort = options.basePort || (await freePort());
  const alertsPort = options.alertsPort || (await freePort());
  const baseUrl = `http://localhost:${basePort}`;
  const alertsUrl = `http://localhost:${alertsPort}`;
  const sharedEnv: Record<string, string> = {
    // The apps listen on loopback only and trust the edge's forwarded address: the edges are the only
    // public doors, as the Ingress is in Kubernetes.
    HOST: '127.0.0.1',
    TRUSTED_PROXIES: EDGE_ADDRESS,
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: options.redisPrefix,
    PUBLIC_BASE_URL: baseUrl,
    ALERTS_BASE_URL: alertsUrl,
    EXCHANGE_API_URL: baseUrl,
    UPSTREAM_URL: appUrls['venue-sim'] ?? '',
    OAUTH_INTERNAL_URL: appUrls['oauth-server'] ?? '',
    EXECUTOR_INTERNAL_URL: appUrls['trading-executor'] ?? '',
    ...options.env,
  };
  const children = new Map<string, ChildProcess>();
  const buffers = new Map<string, string[]>();
  const edges: Server[] = [];

  const launch = (name: string): ChildProcess => {
    const app = name.split('#')[0]!;
    // Built apps run as in the images; compiled-on-load sources keep source maps for readable stacks.
    const main =
      options.mode === 'dist'
        ? [path.join(options.distDir ?? path.join(options.root, 'dist', 'stack'), 'apps', app, 'src', 'main.js')]
        : [
            '--enable-source-maps',
            '-r',
            path.join(options.root, 'tools', 'dev', 'register.cjs'),
            path.join(options.root, 'apps', app, 'src', 'main.ts'),
          ];
    const child = spawn(process.execPath, [...SERVICE_NODE_OPTIONS, ...main], {
      cwd: options.root,
      env: { ...process.env, ...sharedEnv, PORT: String(ports[name]) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const sink = options.logDir
      ? fs.createWriteStream(path.join(options.logDir, `${name}.log`), { flags: 'a' })
      : undefined;
    const buffer = buffers.get(name) ?? [];
    buffers.set(name, buffer);
    const onData = (chunk: Buffer) => {
      sink?.write(chunk);
      buffer.push(chunk.toString());
      if (buffer.length > 400) buffer.splice(0, buffer.length - 400);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', () => sink?.end());
    children.set(name, child);
    liveChildren.add(child);
    child.once('exit', () => liveChildren.delete(child));
    return child;
  };

  const stopApp = (app: string, hard = false): Promise<number | null> => {
    const child = children.get(app);
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child?.exitCode ?? null);
    return new Promise((resolve) => {
      const killer = setTimeout(() => child.kill('SIGKILL'), hard ? 0 : 15000);
      child.once('exit', (code) => {
        clearTimeout(killer);
        resolve(code);
      });
      child.kill(hard ? 'SIGKILL' : 'SIGTERM');
    });
  };

  const stop = async (): Promise<void> => {
    // Connections a client keeps open (an unread answer, a stream) must not hold the stack up: after a
    // short grace the edges drop whatever is still connected.
    await Promise.all(
      edges.map(
        (e) =>
          new Promise<void>((resolve) => {
            const force = setTimeout(() => e.closeAllConnections(), 2000);
            e.close(() => {
              clearTimeout(force);
              resolve();
            });
          }),
      ),
    );
    await Promise.all([...children.keys()].map((app) => stopApp(app)));
  };

  if (options.logDir) fs.mkdirSync(options.logDir, { recursive: true });
  try {
    const started = names.map((app) => ({ app, child: launch(app) }));
    await Promise.all(
      started.map(async ({ app, child }) => {
        try {
          await waitReady(appUrls[app]!, child, options.readyTimeoutMs ?? 60000);
        } catch (error) {
          throw new Error(`${app} ${(error as Error).message}\n${(buffers.get(app) ?? []).join('').slice(-3000)}`);
        }
      }),
    );
    edges.push(await startEdgeProxy(publicResolver(appUrls), basePort));
    edges.push(await startEdgeProxy(alertsResolver(appUrls), alertsPort, { style: 'alerts' }));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl: `http://localhost:${serverPort(edges[0]!)}`,
    alertsUrl: `http://localhost:${serverPort(edges[1]!)}`,
    appUrls,
    logs: (app) => (buffers.get(app) ?? []).join(''),
    pid: (app) => children.get(app)?.pid,
    stopApp,
    restartApp: async (app) => {
      const child = launch(app);
      await waitReady(`http://127.0.0.1:${ports[app]}`, child, options.readyTimeoutMs ?? 60000);
    },
    addReplica: async (app) => {
      const name = `${app}#${[...children.keys()].filter((n) => n.split('#')[0] === app).length + 1}`;
      ports[name] = await freePort();
      const child = launch(name);
      await waitReady(`http://127.0.0.1:${ports[name]}`, child, options.readyTimeoutMs ?? 60000);
      return name;
    },
    stop,
  };
}
