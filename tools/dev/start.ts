/**
 * `npm start`: makes sure PostgreSQL and Redis are reachable, applies migrations, builds, starts every
 * app plus venue-sim, serves the public routes on one base URL (default http://localhost:8080) and the
 * alerts service on its own (default http://localhost:8090). Ctrl-C stops everything it started.
 */
import {
  DEFAULT_ALERTS_PORT,
  DEFAULT_BASE_PORT,
  ensurePostgres,
  ensureRedis,
  MissingServiceError,
  type RunningStack,
  type StartedService,
  startStack,
  WORKSPACE_ROOT,
} from '@paper/dev-stack';
import path from 'node:path';
import { migrate, ALL_SCHEMAS } from '../db/migrate';
import { seedExchange } from '../exchange/seed';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildAll } = require('./build-app.cjs') as { buildAll: () => { apps: string[]; files: number } };

const env = process.env;
const databaseUrl = env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/paper';
const redisUrl = env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const log = (line: string) => console.log(`[stack] ${line}`);

/** A start-up problem the person running the command can fix; printed without a stack trace. */
class StartError extends Error {}

/** A port-like number from the environment, or the default; a bad value stops start-up naming the variable. */
function envNumber(name: string, fallback: number, max = 65535): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max)
    throw new StartError(`${name}: invalid value "${raw}" (expected a whole number from 0 to ${max})`);
  return value;
}

/** Servers this command started itself; they are stopped again with the apps (servers found running stay up). */
const startedServices: StartedService[] = [];

async function stopStartedServices(): Promise<void> {
  for (const service of startedServices.splice(0).reverse()) {
    log(`stopping ${service.name} (started by npm start)`);
    await service.stop();
  }
}

async function ensureServices(): Promise<void> {
  for (const ensure of [() => ensurePostgres(databaseUrl, log), () => ensureRedis(redisUrl, log)]) {
    const service = await ensure();
    if (service) startedServices.push(service);
  }
}

async function prepareData(): Promise<void> {
  log('applying migrations');
  await migrate(databaseUrl, ALL_SCHEMAS, (line) => log(`  ${line}`));
  if (env['SEED'] !== 'false') {
    const seeded = await seedExchange(databaseUrl, { log: (line) => log(`  demo data: ${line}`) });
    if (!seeded.seeded) log('  demo data: exchange already has data, not seeding (SEED=false skips this check)');
  }
}

function printUrls(stack: RunningStack): void {
  const lines = [
    '',
    `  Tool API + MCP + OAuth   ${stack.baseUrl}`,
    `    tools                  ${stack.baseUrl}/api/v1/tools`,
    `    API reference          ${stack.baseUrl}/docs`,
    `    OpenAPI                ${stack.baseUrl}/openapi.json`,
    `    MCP                    ${stack.baseUrl}/mcp`,
    `    OAuth metadata         ${stack.baseUrl}/.well-known/oauth-authorization-server`,
    `    connections            ${stack.baseUrl}/connections`,
    `  Alerts service           ${stack.alertsUrl}`,
    `    status                 ${stack.alertsUrl}/api/status`,
    `  Apps                     ${Object.entries(stack.appUrls)
      .map(([n, u]) => `${n} ${u}`)
      .join(', ')}`,
    '',
    '  Ctrl-C stops everything.',
  ];
  console.log(lines.join('\n'));
}

async function main(): Promise<void> {
  await ensureServices();
  await prepareData();
  const distDir = env['STACK_DIST_DIR'];
  if (distDir) log(`running the build in ${distDir}`);
  else {
    const built = buildAll();
    log(`built ${built.apps.length} apps (${built.files} files)`);
  }
  const logDir = path.join(WORKSPACE_ROOT, 'tmp', 'logs');
  log('starting apps (logs in tmp/logs/<app>.log)');
  const stack = await startStack({
    root: WORKSPACE_ROOT,
    databaseUrl,
    redisUrl,
    redisPrefix: env['REDIS_PREFIX'] ?? 'paper',
    basePort: envNumber('BASE_PORT', DEFAULT_BASE_PORT),
    alertsPort: envNumber('ALERTS_PORT', DEFAULT_ALERTS_PORT),
    randomAppPorts: false,
    appPortOffset: envNumber('APP_PORT_OFFSET', 0, 60000),
    mode: 'dist',
    distDir,
    logDir,
    env: { NODE_ENV: 'development', LOG_LEVEL: env['LOG_LEVEL'] ?? 'info' },
  });
  printUrls(stack);
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    log('stopping');
    stack
      .stop()
      .then(stopStartedServices)
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch(async (error: unknown) => {
  console.error(error instanceof MissingServiceError || error instanceof StartError ? error.message : error);
  await stopStartedServices();
  process.exit(1);
});
