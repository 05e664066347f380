import type { DataSource } from 'typeorm';
import { ConnectionLiveness, GRANT_LIVE_CACHE_MS } from './connection-liveness';
import type { OauthDatabase } from './oauth-database';

/** A stand-in for the grants table: the ids it holds, and how many reads it answered. */
function grantsTable(ids: string[]) {
  const table = { live: new Set(ids), reads: 0 };
  const db = {
    query: async (_sql: string, params: unknown[]) => {
      table.reads += 1;
      return (params[0] as string[]).filter((id) => table.live.has(id)).map((id) => ({ id }));
    },
  } as unknown as DataSource;
  const oauth = { get: async () => db } as unknown as OauthDatabase;
  return { table, liveness: new ConnectionLiveness(oauth) };
}

describe('ConnectionLiveness', () => {
  it('trusts a live grant for GRANT_LIVE_CACHE_MS, then reads it again and sees it revoked', async () => {
    const { table, liveness } = grantsTable(['g1']);
    const now = Date.now();
    await expect(liveness.isLive('g1', now)).resolves.toBe(true);
    table.live.delete('g1');
    await expect(liveness.isLive('g1', now + GRANT_LIVE_CACHE_MS - 100)).resolves.toBe(true);
    expect(table.reads).toBe(1);
    await expect(liveness.isLive('g1', now + GRANT_LIVE_CACHE_MS + 100)).resolves.toBe(false);
    expect(table.reads).toBe(2);
  });

  it('remembers a grant that is gone (grants are never restored), and shares one read among concurrent checks', async () => {
    const { table, liveness } = grantsTable(['g2']);
    const answers = await Promise.all([liveness.isLive('gone'), liveness.isLive('gone'), liveness.isLive('gone')]);
    expect(answers).toEqual([false, false, false]);
    expect(table.reads).toBe(1);
    await expect(liveness.isLive('gone', Date.now() + 10 * GRANT_LIVE_CACHE_MS)).resolves.toBe(false);
    expect(table.reads).toBe(1);
  });

  it('reads many grants in one statement for the streams and remembers each answer', async () => {
    const { table, liveness } = grantsTable(['a', 'b']);
    await expect(liveness.liveOf(['a', 'b', 'c'])).resolves.toEqual(new Set(['a', 'b']));
    expect(table.reads).toBe(1);
    await expect(liveness.isLive('a')).resolves.toBe(true);
    await expect(liveness.isLive('c')).resolves.toBe(false);
    expect(table.reads).toBe(1);
  });
});
