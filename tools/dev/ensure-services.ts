/** Makes sure PostgreSQL and Redis are reachable before the tests run (same rules as `npm start`). */
import { ensurePostgres, ensureRedis, MissingServiceError } from '@paper/dev-stack';

const log = (line: string) => console.log(`[services] ${line}`);
Promise.all([
  ensurePostgres(process.env['TEST_DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres', log),
  ensureRedis(process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379', log),
]).catch((error: unknown) => {
  console.error(error instanceof MissingServiceError ? error.message : error);
  process.exit(1);
});
