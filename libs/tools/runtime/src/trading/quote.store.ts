import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ToolErrorCode } from '@paper/contracts';
import { type Market, type Side, formatUsdc } from '@paper/exchange';
import { TOOLS_REDIS } from '../redis/tools-redis';
import type { Redis } from 'ioredis';
import { ToolError } from '../errors/tool.error';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';

/** What a quote is bound to: the same wallet, market, side, margin and leverage must be presented. */
export interface QuoteTerms {
  wallet: string;
  market: Market;
  side: Side;
  marginMicro: bigint;
  leverage: number;
}

export interface Quote extends QuoteTerms {
  quoteId: string;
  /** Epoch ms after which the quote can no longer open a position. */
  expiresAt: number;
}

const QUOTE_ID = /^q_[0-9a-f]{32}$/;
/** Expired quotes stay readable this long so a late open says "expired" rather than "unknown". */
const GRACE_SECONDS = 600;

/** Clears a claim (`usedAt`) only if it is still the one the caller made. */
const RELEASE_CLAIM = `
if redis.call('HGET', KEYS[1], 'usedAt') == ARGV[1] then return redis.call('HDEL', KEYS[1], 'usedAt') end
return 0
`;

type Scripted = Redis & { releaseQuoteClaim(key: string, claim: string): Promise<number> };

/**
 * Preview quotes in Redis (`<prefix>:quotes:<quoteId>`, shared by every replica). A quote is single-use:
 * the first open that presents it claims it atomically (HSETNX usedAt). An open whose intent was certainly
 * not queued releases its claim, so the same quote can be presented again.
 */
@Injectable()
export class QuoteStore {
  private readonly redis: Scripted;

  constructor(
    @Inject(TOOLS_REDIS) redis: Redis,
    @Inject(TOOLS_RUNTIME_OPTIONS) private readonly options: ToolsRuntimeOptions,
  ) {
    if (!('releaseQuoteClaim' in redis))
      redis.defineCommand('releaseQuoteClaim', { numberOfKeys: 1, lua: RELEASE_CLAIM });
    this.redis = redis as Scripted;
  }

  key(quoteId: string): string {
    return `${this.options.redisPrefix}:quotes:${quoteId}`;
  }

  async create(terms: QuoteTerms, now = Date.now()): Promise<Quote> {
    const quote: Quote = {
      ...terms,
      quoteId: `q_${randomBytes(16).toString('hex')}`,
      expiresAt: now + this.options.quoteTtlSeconds * 1000,
    };
    const key = this.key(quote.quoteId);
    await this.redis
      .multi()
      .hset(key, {
        wallet: quote.wallet,
        market: quote.market,
        side: quote.side,
        marginMicro: quote.marginMicro.toString(),
        leverage: String(quote.leverage),
        expiresAt: String(quote.expiresAt),
      })
      .expire(key, this.options.quoteTtlSeconds + GRACE_SECONDS)
      .exec();
    return quote;
  }

  /**
   * Checks that the quote exists, belongs to the wallet, is unexpired, unused and matches the terms. Does not consume
   * it.
   */
  async verify(quoteId: string, terms: QuoteTerms, now = Date.now()): Promise<void> {
    const unknown = new ToolError(
      ToolErrorCode.QuoteNotFound,
      `Quote "${quoteId.slice(0, 40)}" is unknown. Call preview_trade with the same market, side, marginUsd and ` +
        `leverage, show the preview to the user, and pass the new quoteId.`,
    );
    if (!QUOTE_ID.test(quoteId)) throw unknown;
    const stored = await this.redis.hgetall(this.key(quoteId));
    if (!stored['wallet'] || stored['wallet'] !== terms.wallet) throw unknown;
    if (stored['usedAt']) {
      throw new ToolError(
        ToolErrorCode.QuoteUsed,
        'This quote was already used to open a position; a quote opens at most one position. Call preview_trade ' +
          'again for a new quote.',
      );
    }
    if (Number(stored['expiresAt']) <= now) {
      throw new ToolError(
        ToolErrorCode.QuoteExpired,
        `This quote expired at ${new Date(Number(stored['expiresAt'])).toISOString()} (quotes are valid for ` +
          `${Math.round(this.options.quoteTtlSeconds / 60)} minutes). Call preview_trade again and confirm the new ` +
          `preview with the user.`,
      );
    }
    const differences = [
      stored['market'] !== terms.market ? `market ${stored['market']} (not ${terms.market})` : null,
      stored['side'] !== terms.side ? `side ${stored['side']} (not ${terms.side})` : null,
      stored['marginMicro'] !== terms.marginMicro.toString()
        ? `marginUsd ${formatUsdc(BigInt(stored['marginMicro'] ?? '0'))} (not ${formatUsdc(terms.marginMicro)})`
        : null,
      stored['leverage'] !== String(terms.leverage) ? `leverage ${stored['leverage']} (not ${terms.leverage})` : null,
    ].filter(Boolean);
    if (differences.length > 0) {
      throw new ToolError(
        ToolErrorCode.QuoteMismatch,
        `This quote was previewed for ${differences.join(', ')}. Open exactly what was previewed, or call ` +
          `preview_trade for the new terms and confirm them with the user.`,
      );
    }
  }

  /**
   * Marks the quote used; returns the claim (to release it if nothing was queued), or null when another request claimed
   * it first.
   */
  async claim(quoteId: string, now = Date.now()): Promise<string | null> {
    const claim = `${now}:${randomBytes(6).toString('hex')}`;
    return (await this.redis.hsetnx(this.key(quoteId), 'usedAt', claim)) === 1 ? claim : null;
  }

  /** Makes the quote usable again; true when this claim was still in place. */
  async release(quoteId: string, claim: string): Promise<boolean> {
    return (await this.redis.releaseQuoteClaim(this.key(quoteId), claim)) === 1;
  }
}
