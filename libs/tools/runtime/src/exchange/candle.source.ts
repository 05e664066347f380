import { Inject, Injectable } from '@nestjs/common';
import { type Market, decimalToScaled, priceToScaled } from '@paper/exchange';
import { type CandleInterval, type HyperliquidInfoClient, intervalMs } from '@paper/upstream';
import { priceDecimals } from '../money/money-format';
import { UPSTREAM_CLIENT } from './prev-day-price.source';

/** One candle with prices at the market scale and volume in micro-units of the base asset. */
export interface ScaledCandle {
  time: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volumeMicro: bigint;
}

const VOLUME_DECIMALS = 6;

/** OHLCV candles from the upstream venue (UpstreamError -> 502 upstream_unavailable). */
@Injectable()
export class CandleSource {
  constructor(@Inject(UPSTREAM_CLIENT) private readonly upstream: HyperliquidInfoClient) {}

  /**
   * The latest `count` candles (the current, still open one included), oldest first; fewer only when the venue has no
   * older ones.
   */
  async latest(market: Market, interval: CandleInterval, count: number, now = Date.now()): Promise<ScaledCandle[]> {
    const startTime = candleWindowStart(interval, count, now);
    const raw = await this.upstream.candleSnapshot({ coin: market, interval, startTime, endTime: now });
    const decimals = priceDecimals(market);
    return raw
      .slice(-count)
      .map((c) => ({
        time: c.t,
        open: priceToScaled(c.o, decimals),
        high: priceToScaled(c.h, decimals),
        low: priceToScaled(c.l, decimals),
        close: priceToScaled(c.c, decimals),
        volumeMicro: decimalToScaled(c.v, VOLUME_DECIMALS),
      }))
      .sort((a, b) => a.time - b.time);
  }
}

/**
 * Start of a request window that holds the `count` candles before the current one, whatever the
 * interval: `1M` candles are calendar months (28 to 31 days), so the window starts on the first day of the
 * month `count` months back; fixed-length intervals go back `count + 1` lengths.
 */
export function candleWindowStart(interval: CandleInterval, count: number, now: number): number {
  if (interval === '1M') {
    const date = new Date(now);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - count, 1);
  }
  return now - intervalMs(interval) * (count + 1);
}

export function volumeNumber(micro: bigint): number {
  const negative = micro < 0n;
  const digits = (negative ? -micro : micro).toString().padStart(VOLUME_DECIMALS + 1, '0');
  return Number(`${negative ? '-' : ''}${digits.slice(0, -VOLUME_DECIMALS)}.${digits.slice(-VOLUME_DECIMALS)}`);
}
