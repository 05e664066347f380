import type { MarketSpec } from '../markets/market-spec';
import { hash32, uniform } from '../prices/prng';
import { formatTicks, type TickQuote } from '../prices/quote';

const HOUR = 3_600_000;
/** Entries the venue returns at most for one fundingHistory request. */
export const FUNDING_HISTORY_LIMIT = 500;
/** Trades `recentTrades` returns. */
export const RECENT_TRADES = 10;

/** Funding is not simulated: every hourly funding is zero. */
export function fundingHistory(market: MarketSpec, startTime: number, endTime: number) {
  const first = Math.ceil(startTime / HOUR) * HOUR;
  const entries = [];
  for (let time = first; time <= endTime && entries.length < FUNDING_HISTORY_LIMIT; time += HOUR) {
    entries.push({ coin: market.coin, fundingRate: '0.0', premium: '0.0', time });
  }
  return entries;
}

/** The next hourly funding of every market, zero, as the venue's own ("HlPerp") prediction. */
export function predictedFundings(markets: readonly MarketSpec[], now: number) {
  const nextFundingTime = Math.floor(now / HOUR) * HOUR + HOUR;
  return markets.map(
    (m) => [m.coin, [['HlPerp', { fundingRate: '0.0', nextFundingTime, fundingIntervalHours: 1 }]]] as const,
  );
}

function hex(seed: number, stream: number, index: number, bytes: number): `0x${string}` {
  let out = '';
  for (let i = 0; out.length < bytes * 2; i += 1)
    out += hash32(seed, stream, index * 64 + i)
      .toString(16)
      .padStart(8, '0');
  return `0x${out.slice(0, bytes * 2)}`;
}

/**
 * The latest trades at the quote: buys at the ask, sells at the bid, one a second before `now`, with
 * seeded sizes, hashes and counterparties (the same second gives the same trades).
 */
export function recentTrades(market: MarketSpec, q: TickQuote, seed: number, now: number) {
  const second = Math.floor(now / 1000);
  return Array.from({ length: RECENT_TRADES }, (_, i) => {
    const index = second - i;
    const u = uniform(seed, market.salt * 100 + 7, index);
    const buy = u < 0.5;
    return {
      coin: market.coin,
      side: buy ? ('B' as const) : ('A' as const),
      px: formatTicks(buy ? q.ask : q.bid, market.priceDecimals),
      sz: (market.avgTradeSize * (0.1 + 3 * u)).toFixed(market.szDecimals),
      time: index * 1000,
      hash: hex(seed, market.salt * 100 + 8, index, 32),
      tid: hash32(seed, market.salt * 100 + 9, index) * 1024 + market.salt,
      users: [hex(seed, market.salt * 100 + 10, index, 20), hex(seed, market.salt * 100 + 11, index, 20)] as [
        `0x${string}`,
        `0x${string}`,
      ],
    };
  });
}
