/**
 * `npm start`: makes sure PostgreSQL and Redis are reachable, applies migrations, builds, starts every
 * app plus venue-sim, serves the public routes on one base URL (default http://localhost:8080) and the
 * alerts service on its own (default http://localhost:8090). Ctrl-C stops everything it started.
 */
import { DEFAULT_ALERTS_PORT, DEFAULT_BASE_PORT, ensurePostgres, ensureRedis, MissingServiceError, startStack, WORKSPACE_ROOT } from '@paper/dev-stack';
import path from 'node:path';
import { migrate, ALL_SCHEMAS } from '../db/migrate';
import { seedExchange } from '../exchange/seed';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildAll } = require('./build-app.cjs') as { buildAll: () => { apps: string[]; files: number } };

const env = process.env;
const databaseUrl = env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/paper';
const redisUrl = env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const log = (line: string) => console.log(`[stack] ${line}`);

async function main(): Promise<void> {
  await ensurePostgres(databaseUrl, log);
  await ensureRedis(redisUrl, log);
  log('applying migrations');
  await migrate(databaseUrl, ALL_SCHEMAS, (line) => log(`  ${line}`));
  if (env['SEED'] !== 'false') {
    const seeded = await seedExchange(databaseUrl, { log: (line) => log(`  demo data: ${line}`) });
    if (!seeded.seeded) log('  demo data: exchange already has data, not seeding (SEED=false skips this check)');
  }
  const built = buildAll();
  log(`built ${built.apps.length} apps (${built.files} files)`);
  const logDir = path.join(WORKSPACE_ROOT, 'tmp', 'logs');
  log('starting apps (logs in tmp/logs/<app>.log)');
  const stack = await startStack({
    root: WORKSPACE_ROOT,
    databaseUrl,
    redisUrl,
    redisPrefix: env['REDIS_PREFIX'] ?? 'paper',
    basePort: Number(env['BASE_PORT'] ?? DEFAULT_BASE_PORT),
    alertsPort: Number(env['ALERTS_PORT'] ?? DEFAULT_ALERTS_PORT),
    randomAppPorts: false,
    mode: 'dist',
    logDir,
    env: { NODE_ENV: 'development', LOG_LEVEL: env['LOG_LEVEL'] ?? 'info' },
  });
  const lines = [
    '',
    `  Tool API + MCP + OAuth   ${stack.baseUrl}`,
    `    tools                  ${stack.baseUrl}/api/v1/tools`,
    `    OpenAPI                ${stack.baseUrl}/openapi.json`,
    `    MCP                    ${stack.baseUrl}/mcp`,
    `    OAuth metadata         ${stack.baseUrl}/.well-known/oauth-authorization-server`,
    `  Alerts service           ${stack.alertsUrl}`,
    `    status                 ${stack.alertsUrl}/api/status`,
    `  Apps                     ${Object.entries(stack.appUrls).map(([n, u]) => `${n} ${u}`).join(', ')}`,
    '',
    '  Ctrl-C stops everything.',
  ];
  console.log(lines.join('\n'));
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    log('stopping');
    stack.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof MissingServiceError ? error.message : error);
  process.exit(1);
});
