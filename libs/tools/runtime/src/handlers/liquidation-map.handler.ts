import { Inject, Injectable } from '@nestjs/common';
import { GET_LIQUIDATION_MAP, type ToolData, type ToolInput } from '@paper/contracts';
import type { Market, Side } from '@paper/exchange';
import { openPositionBusts } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import { PriceReader } from '../exchange/price.reader';
import { percentOf, priceText, px, usd, usdText } from '../money/money-format';
import type { ToolHandler, ToolOutcome } from './tool-handler';

type Data = ToolData<typeof GET_LIQUIDATION_MAP>;

/** Bucket width in tenths of a percent of the mark (5 = 0.5%), and buckets on each side of the mark. */
const BUCKET_PERMILLE = 5n;
const BUCKETS_EACH_SIDE = 20;
const LARGEST_CLUSTERS = 5;

interface Tally {
  notional: bigint;
  count: number;
}

const empty = (): Tally => ({ notional: 0n, count: 0 });

export interface LiquidationPoint {
  side: Side;
  bust: bigint;
  notional: bigint;
}

/** Groups bust prices into buckets around the mark (pure; exported for tests). */
export function bucketize(market: Market, mark: bigint, points: readonly LiquidationPoint[]): Data {
  const width = (mark * BUCKET_PERMILLE) / 1000n > 0n ? (mark * BUCKET_PERMILLE) / 1000n : 1n;
  const low = mark - width * BigInt(BUCKETS_EACH_SIDE);
  const count = BUCKETS_EACH_SIDE * 2;
  const buckets = Array.from({ length: count }, (_, i) => ({
    from: low + width * BigInt(i),
    longs: empty(),
    shorts: empty(),
  }));
  const totals = { longs: empty(), shorts: empty() };
  const outside = { longs: empty(), shorts: empty() };
  for (const p of points) {
    const key = p.side === 'long' ? 'longs' : 'shorts';
    add(totals[key], p.notional);
    const index = p.bust < low ? -1 : Number((p.bust - low) / width);
    const bucket = index >= 0 && index < count ? buckets[index] : undefined;
    add(bucket ? bucket[key] : outside[key], p.notional);
  }
  const tally = (t: Tally) => ({ notionalUsd: usd(t.notional), count: t.count });
  const clusters = buckets
    .flatMap((b) => (['longs', 'shorts'] as const).map((key) => ({ b, key, t: b[key] })))
    .filter((c) => c.t.count > 0)
    .sort((a, b) => (b.t.notional > a.t.notional ? 1 : b.t.notional < a.t.notional ? -1 : 0))
    .slice(0, LARGEST_CLUSTERS)
    .map(({ b, key, t }) => ({
      side: key === 'longs' ? ('long' as const) : ('short' as const),
      priceFrom: px(b.from, market),
      priceTo: px(b.from + width, market),
      notionalUsd: usd(t.notional),
      count: t.count,
      distancePercent: percentOf(b.from + width / 2n - mark, mark, 2) ?? 0,
    }));
  return {
    market,
    markPrice: px(mark, market),
    bucketPercent: Number(BUCKET_PERMILLE) / 10,
    buckets: buckets.map((b) => ({
      priceFrom: px(b.from, market),
      priceTo: px(b.from + width, market),
      longs: tally(b.longs),
      shorts: tally(b.shorts),
    })),
    largestClusters: clusters,
    totals: { longs: tally(totals.longs), shorts: tally(totals.shorts) },
    outsideRange: { longs: tally(outside.longs), shorts: tally(outside.shorts) },
  };
}

function add(t: Tally, notional: bigint): void {
  t.notional += notional;
  t.count += 1;
}

@Injectable()
export class LiquidationMapHandler implements ToolHandler<typeof GET_LIQUIDATION_MAP> {
  readonly tool = GET_LIQUIDATION_MAP;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    private readonly prices: PriceReader,
  ) {}

  async run(input: ToolInput<typeof GET_LIQUIDATION_MAP>): Promise<ToolOutcome<Data>> {
    const { market } = input;
    const [price, rows] = await Promise.all([this.prices.latest(market), openPositionBusts(this.db, market)]);
    const points = rows.map((r) => ({ side: r.side, bust: r.bustPrice, notional: r.notionalMicro }));
    const data = bucketize(market, price.mid, points);
    const top = data.largestClusters[0];
    const summary =
      points.length === 0
        ? `No open ${market} positions, so there is nothing to liquidate around ${priceText(price.mid, market)}.`
        : `${points.length} open ${market} position${points.length === 1 ? '' : 's'} around ` +
          `${priceText(price.mid, market)}: ` +
          `longs ${usdText(points.filter((p) => p.side === 'long').reduce((s, p) => s + p.notional, 0n))}, ` +
          `shorts ${usdText(points.filter((p) => p.side === 'short').reduce((s, p) => s + p.notional, 0n))} notional.` +
          (top
            ? ` Largest cluster: ${top.side}s liquidating at ${top.priceFrom}-${top.priceTo} (${top.notionalUsd} USDC).`
            : '');
    return { summary, data };
  }
}
