import type { PriceTick } from '@paper/contracts';
import type { Redis } from 'ioredis';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { LiquidationListener } from './liquidation.listener';
import type { LiquidationService } from './liquidation.service';

const tick = (mid: string, market: 'BTC' | 'ETH' = 'BTC'): PriceTick => ({ market, bid: mid, ask: mid, mid, ts: Date.now() });

function listener(liquidateAt: (market: string, mark: bigint) => Promise<number>) {
  const redis = { set: async () => 'OK', eval: async () => 1 } as unknown as Redis;
  const config = { REDIS_PREFIX: 't', LEADER_LEASE_MS: 5000, PRICE_STALE_MS: 10_000, LIQUIDATIONS: false } as TradingExecutorConfig;
  return new LiquidationListener(config, redis, { liquidateAt } as unknown as LiquidationService);
}

describe('LiquidationListener', () => {
  it('coalesces ticks that arrive during a pass: only the latest runs next', async () => {
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const l = listener(async (market, mark) => {
      seen.push(`${market}:${mark}`);
      if (seen.length === 1) await gate;
      return 0;
    });
    await (l as unknown as { lease: { tryHold(): Promise<boolean> } }).lease.tryHold();
    l.onTick(tick('100'));
    l.onTick(tick('101'));
    l.onTick(tick('102'));
    l.onTick(tick('50', 'ETH'));
    release();
    await l.idle();
    expect(seen).toEqual(['BTC:100', 'ETH:50', 'BTC:102']);
  });

  it('ignores ticks while it does not hold the liquidator lease, and stale ticks', async () => {
    const seen: bigint[] = [];
    const l = listener(async (_m, mark) => {
      seen.push(mark);
      return 0;
    });
    l.onTick(tick('100'));
    await (l as unknown as { lease: { tryHold(): Promise<boolean> } }).lease.tryHold();
    l.onTick({ ...tick('101'), ts: Date.now() - 60_000 });
    l.onTick(tick('102'));
    await l.idle();
    expect(seen).toEqual([102n]);
  });
});
