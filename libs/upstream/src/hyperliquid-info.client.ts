import type { CandleSnapshotRequest, AssetCtx, BestBidAsk, Candle, L2Book, Meta } from './info-types';
import { candleSnapshotExtraWeight, DEFAULT_WEIGHT_PER_MINUTE, INFO_REQUEST_WEIGHT } from './request-weight';
import { parseAllMids, parseCandles, parseL2Book, parseMetaAndAssetCtxs } from './response-shapes';
import { backoffDelay, parseRetryAfter, sleep } from './retry-policy';
import { UpstreamError } from './upstream-error';
import { WeightBucket } from './weight-bucket';

export interface HyperliquidInfoClientOptions {
  /** Venue root, e.g. https://api.hyperliquid.xyz or the local simulator; requests go to {baseUrl}/info. */
  baseUrl: string;
  /** Per-attempt deadline for the whole answer (default 2000). */
  timeoutMs?: number;
  /** Extra attempts after a network error, timeout, 5xx or 429 (default 2). */
  retries?: number;
  /** Base of the exponential backoff between attempts, jittered (default 200). */
  backoffMs?: number;
  /** The venue's weight allowance a minute (default 1200); the client spends at most (1 - safetyMargin) of it. */
  weightPerMinute?: number;
  /** Share of the allowance kept in reserve (default 0.1). */
  safetyMargin?: number;
  /** How long a call may wait for budget before failing with rate_limited (default 2000). */
  maxBudgetWaitMs?: number;
  /** Longest Retry-After honoured; a longer one fails the call with rate_limited at once (default 5000). */
  maxRetryAfterMs?: number;
}

type Attempt =
  { ok: true; body: unknown } | { ok: false; error: UpstreamError; retryable: boolean; retryAfterMs?: number };

/** Client of the Hyperliquid info API (`POST /info`) with timeouts, retries and a request-weight budget. */
export class HyperliquidInfoClient {
  readonly infoUrl: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBudgetWaitMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly budget: WeightBucket;

  constructor(options: HyperliquidInfoClientOptions) {
    this.infoUrl = `${options.baseUrl.replace(/\/+$/, '')}/info`;
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.retries = options.retries ?? 2;
    this.backoffMs = options.backoffMs ?? 200;
    this.maxBudgetWaitMs = options.maxBudgetWaitMs ?? 2000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 5000;
    const perMinute = options.weightPerMinute ?? DEFAULT_WEIGHT_PER_MINUTE;
    const margin = options.safetyMargin ?? 0.1;
    this.budget = new WeightBucket(Math.max(1, Math.floor(perMinute * (1 - margin))));
  }

  /** Weight this client may spend a minute (the allowance minus the safety margin). */
  get weightCapacity(): number {
    return this.budget.capacity;
  }

  /** Weight that can be spent right now. */
  remainingWeight(): number {
    return this.budget.available();
  }

  async allMids(): Promise<Record<string, string>> {
    return parseAllMids(await this.post({ type: 'allMids' }, INFO_REQUEST_WEIGHT.allMids));
  }

  async l2Book(coin: string): Promise<L2Book> {
    return parseL2Book(await this.post({ type: 'l2Book', coin }, INFO_REQUEST_WEIGHT.l2Book), coin);
  }

  async bestBidAsk(coin: string): Promise<BestBidAsk> {
    const book = await this.l2Book(coin);
    const bid = book.levels[0][0];
    const ask = book.levels[1][0];
    if (!bid || !ask) throw new UpstreamError('bad_response', `empty book side for ${coin}`);
    return { coin: book.coin, bid: bid.px, ask: ask.px, time: book.time };
  }

  async candleSnapshot(request: CandleSnapshotRequest): Promise<Candle[]> {
    const req = {
      coin: request.coin,
      interval: request.interval,
      startTime: request.startTime,
      endTime: request.endTime,
    };
    const candles = parseCandles(await this.post({ type: 'candleSnapshot', req }, INFO_REQUEST_WEIGHT.candleSnapshot));
    this.budget.take(candleSnapshotExtraWeight(candles.length));
    return candles;
  }

  async metaAndAssetCtxs(): Promise<[Meta, AssetCtx[]]> {
    return parseMetaAndAssetCtxs(await this.post({ type: 'metaAndAssetCtxs' }, INFO_REQUEST_WEIGHT.metaAndAssetCtxs));
  }

  private async post(body: object, weight: number): Promise<unknown> {
    for (let attempt = 0; ; attempt += 1) {
      await this.reserve(weight);
      const outcome = await this.attempt(body);
      if (outcome.ok) return outcome.body;
      if (!outcome.retryable || attempt >= this.retries) throw outcome.error;
      await sleep(outcome.retryAfterMs ?? backoffDelay(attempt, this.backoffMs));
    }
  }

  /** Waits for `weight` of budget, up to maxBudgetWaitMs; then fails with rate_limited. */
  private async reserve(weight: number): Promise<void> {
    const deadline = Date.now() + this.maxBudgetWaitMs;
    while (!this.budget.tryTake(weight)) {
      const wait = this.budget.msUntil(weight);
      if (Date.now() + wait > deadline) {
        throw new UpstreamError(
          'rate_limited',
          `request weight budget spent (need ${weight}, ${Math.floor(this.budget.available())} left)`,
        );
      }
      await sleep(Math.max(1, wait));
    }
  }

  private async attempt(body: object): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      const res = await fetch(this.infoUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      const text = await res.text();
      return this.interpret(res, text);
    } catch (error) {
      if (controller.signal.aborted) {
        return {
          ok: false,
          retryable: true,
          error: new UpstreamError('timeout', `no answer within ${this.timeoutMs} ms`),
        };
      }
      return {
        ok: false,
        retryable: true,
        error: new UpstreamError('unavailable', `network error: ${(error as Error).message}`),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  private interpret(res: Response, text: string): Attempt {
    if (res.status === 429) {
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
      const error = new UpstreamError('rate_limited', 'venue answered 429', 429);
      if (retryAfterMs !== undefined && retryAfterMs > this.maxRetryAfterMs)
        return { ok: false, retryable: false, error };
      return { ok: false, retryable: true, error, retryAfterMs };
    }
    if (res.status >= 500) {
      return {
        ok: false,
        retryable: true,
        error: new UpstreamError('unavailable', `venue answered ${res.status}`, res.status),
      };
    }
    if (res.status !== 200) {
      return {
        ok: false,
        retryable: false,
        error: new UpstreamError('bad_response', `venue answered ${res.status}: ${text.slice(0, 200)}`, res.status),
      };
    }
    try {
      return { ok: true, body: JSON.parse(text) as unknown };
    } catch {
      return {
        ok: false,
        retryable: false,
        error: new UpstreamError('bad_response', 'venue answer is not JSON', res.status),
      };
    }
  }
}
