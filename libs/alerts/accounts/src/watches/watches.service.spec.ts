import { AlertsErrorCode } from '@paper/contracts';
import type { DataSource } from 'typeorm';
import type { AlertsAccountsConfig } from '../config/alerts-accounts.config';
import { COOLDOWN_MAX_S, MUTE_MAX_S, QUIET_MIN_S, WatchesService } from './watches.service';

/** The service over a watches table that records each update it is given. */
function service() {
  const updates: unknown[] = [];
  const db = {
    getRepository: () => ({
      update: async (_where: unknown, values: unknown) => {
        updates.push(values);
        return { affected: 1 };
      },
    }),
  } as unknown as DataSource;
  return { updates, watches: new WatchesService(db, {} as AlertsAccountsConfig) };
}

const refusal = (run: Promise<void>) =>
  run.then(
    () => 'stored',
    (error: { code?: string }) => error.code,
  );

describe('a watch’s mute and cooldown bounds (every front end)', () => {
  it('mutes from 1 minute to 30 days, and lifts a mute', async () => {
    const { updates, watches } = service();
    const inSeconds = (s: number) => new Date(Date.now() + s * 1000);
    expect(await refusal(watches.mute('a', 'w', inSeconds(QUIET_MIN_S)))).toBe('stored');
    expect(await refusal(watches.mute('a', 'w', inSeconds(MUTE_MAX_S)))).toBe('stored');
    expect(await refusal(watches.mute('a', 'w', null))).toBe('stored');
    expect(await refusal(watches.mute('a', 'w', inSeconds(10)))).toBe(AlertsErrorCode.ValidationFailed);
    expect(await refusal(watches.mute('a', 'w', inSeconds(MUTE_MAX_S + 60)))).toBe(AlertsErrorCode.ValidationFailed);
    expect(updates).toHaveLength(3);
  });

  it('takes a cooldown of 0 (none) or 1 minute to 1 day', async () => {
    const { updates, watches } = service();
    for (const ok of [0, QUIET_MIN_S, COOLDOWN_MAX_S])
      expect(await refusal(watches.setCooldown('a', 'w', ok))).toBe('stored');
    for (const bad of [-60, 30, COOLDOWN_MAX_S + 60, 90.5])
      expect(await refusal(watches.setCooldown('a', 'w', bad))).toBe(AlertsErrorCode.ValidationFailed);
    expect(updates).toEqual([{ cooldownS: 0 }, { cooldownS: QUIET_MIN_S }, { cooldownS: COOLDOWN_MAX_S }]);
  });
});
