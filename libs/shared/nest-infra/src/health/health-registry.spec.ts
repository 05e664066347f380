import { HealthRegistry } from './health-registry';

describe('HealthRegistry', () => {
  it('is ready only when every check passes', async () => {
    const registry = new HealthRegistry();
    registry.register('database', async () => undefined);
    registry.register('redis', async () => {
      throw new Error('connection refused');
    });
    await expect(registry.readiness()).resolves.toEqual({
      status: 'not_ready',
      checks: { database: 'up', redis: 'down' },
      reasons: { redis: 'connection refused' },
    });
  });

  it('reports no reasons when every check passes', async () => {
    const registry = new HealthRegistry();
    registry.register('database', async () => undefined);
    await expect(registry.readiness()).resolves.toEqual({ status: 'ok', checks: { database: 'up' } });
  });

  it('counts a hanging check as down', async () => {
    const registry = new HealthRegistry();
    registry.register('slow', () => new Promise(() => undefined));
    await expect(registry.readiness(50)).resolves.toMatchObject({
      status: 'not_ready',
      checks: { slow: 'down' },
      reasons: { slow: 'no answer within 50 ms' },
    });
  });

  it('reports shutting down once marked', async () => {
    const registry = new HealthRegistry();
    registry.register('database', async () => undefined);
    registry.markShuttingDown();
    await expect(registry.readiness()).resolves.toMatchObject({ status: 'shutting_down' });
  });
});
