import { STACK_APPS, testDistDir } from '@paper/dev-stack';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

function runWithEnv(app: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [path.join(testDistDir(), 'apps', app, 'src', 'main.js')], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
    timeout: 30000,
  });
}

describe('config validation at start-up', () => {
  it.each(STACK_APPS.map((a) => a.name))('%s exits non-zero naming a bad PORT', (app) => {
    const result = runWithEnv(app, { PORT: 'eighty' });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('PORT: invalid value "eighty"');
  });

  it('names a malformed DATABASE_URL', () => {
    const result = runWithEnv('alerts-api', { DATABASE_URL: 'mysql://db/alerts' });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('DATABASE_URL');
    expect(result.stderr).toContain('postgres://');
  });

  it('names a malformed REDIS_URL and an unknown LOG_LEVEL together', () => {
    const result = runWithEnv('trading-executor', { REDIS_URL: 'localhost:6379', LOG_LEVEL: 'loud' });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('REDIS_URL');
    expect(result.stderr).toContain('LOG_LEVEL');
  });
});
