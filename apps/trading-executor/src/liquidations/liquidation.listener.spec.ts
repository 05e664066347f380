import type { PriceTick } from '@paper/contracts';
import type { Redis } from 'ioredis';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { LiquidationListener } from './liquidation.listener';
import type { LiquidationService, MarkRange } from './liquidation.service';

const tick = (mid: string, market: 'BTC' | 'ETH' = 'BTC'): PriceTick => ({
  market,
  bid: mid,
  ask: mid,
  mid,
  ts: Date.now(),
});

function listener(liquidateRange: (market: string, marks: MarkRange) => Promise<number>) {
  const redis = { set: async () => 'OK', eval: async () => 1 } as unknown as Redis;
  const config = {
    REDIS_PREFIX: 't',
    LEADER_LEASE_MS: 5000,
    PRICE_STALE_MS: 10_000,
    LIQUIDATIONS: false,
  } as TradingExecutorConfig;
  return new LiquidationListener(config, redis, { liquidateRange } as unknown as LiquidationService);
}

const hold = (l: LiquidationListener) => (l as unknown as { lease: { tryHold(): Promise<boolean> } }).lease.tryHold();

describe('LiquidationListener', () => {
  it('merges the ticks that arrive during a pass into the lowest and highest mark for the next pass', async () => {
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const l = listener(async (market, { low, high }) => {
      seen.push(`${market}:${low}..${high}`);
      if (seen.length === 1) await gate;
      return 0;
    });
    await hold(l);
    l.onTick(tick('100'));
    l.onTick(tick('101'));
    l.onTick(tick('102'));
    l.onTick(tick('50', 'ETH'));
    release();
    await l.idle();
    expect(seen).toEqual(['BTC:100..100', 'ETH:50..50', 'BTC:101..102']);
  });

  it('does not miss a spike through a bust price that reverts within one pass: longs at the low, shorts at the high', async () => {
    const seen: MarkRange[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const l = listener(async (_market, marks) => {
      seen.push(marks);
      if (seen.length === 1) await gate;
      return 0;
    });
    await hold(l);
    l.onTick(tick('1000000'));
    // While the first pass runs: a spike down through a long's bust price, a spike up through a short's, and back.
    l.onTick(tick('990400'));
    l.onTick(tick('1009600'));
    l.onTick(tick('1000000'));
    release();
    await l.idle();
    expect(seen).toEqual([
      { low: 1_000_000n, high: 1_000_000n },
      { low: 990_400n, high: 1_009_600n },
    ]);
  });

  it('starts afresh after each pass: the next pass covers only the ticks seen since', async () => {
    const seen: MarkRange[] = [];
    const l = listener(async (_m, marks) => {
      seen.push(marks);
      return 0;
    });
    await hold(l);
    l.onTick(tick('100'));
    await l.idle();
    l.onTick(tick('120'));
    await l.idle();
    expect(seen).toEqual([
      { low: 100n, high: 100n },
      { low: 120n, high: 120n },
    ]);
  });

  it('ignores ticks while it does not hold the liquidator lease, and stale ticks', async () => {
    const seen: MarkRange[] = [];
    const l = listener(async (_m, marks) => {
      seen.push(marks);
      return 0;
    });
    l.onTick(tick('100'));
    await hold(l);
    l.onTick({ ...tick('101'), ts: Date.now() - 60_000 });
    l.onTick(tick('102'));
    await l.idle();
    expect(seen).toEqual([{ low: 102n, high: 102n }]);
  });
});
