import { Inject, Injectable } from '@nestjs/common';
import { type IntentResult, ToolErrorCode } from '@paper/contracts';
import { type Market, type OpenCheckResult, type Side, checkOpen } from '@paper/exchange';
import { type TradingAccount, tradingAccount } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import type { ToolContext } from '../context/tool-context';
import { ToolError, RETRY_AFTER_SECONDS, toolErrors } from '../errors/tool.error';
import { type ExchangeState, ExchangeStateReader } from '../exchange/exchange-state.reader';
import { type LivePrice, PriceReader } from '../exchange/price.reader';
import { type SessionKeyInfo, SessionKeysReader } from '../exchange/session-keys.reader';

export interface TradeTerms {
  market: Market;
  side: Side;
  marginMicro: bigint;
  leverage: number;
}

export interface TradeSnapshot {
  price: LivePrice;
  state: ExchangeState;
  account: TradingAccount | null;
}

export interface CheckedTrade {
  price: LivePrice;
  notionalMicro: bigint;
  availableMicro: bigint;
}

/** The ToolError for a refusal reason of @paper/exchange or of the executor. */
export function refusalError(reason: string, message: string): ToolError {
  if (reason.startsWith('guardrail_')) return new ToolError(ToolErrorCode.GuardrailExceeded, message);
  if (reason.startsWith('session_key')) return new ToolError(ToolErrorCode.NoTradingSession, message);
  if (reason === 'price_unavailable')
    return new ToolError(ToolErrorCode.UpstreamUnavailable, message, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  return new ToolError(ToolErrorCode.TradeRefused, message);
}

export function resultError(result: IntentResult): ToolError {
  return refusalError(result.reason ?? 'refused', result.message);
}

/** Session and pre-trade checks shared by preview_trade and open_position (the executor checks again when it runs). */
@Injectable()
export class TradeChecks {
  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    private readonly prices: PriceReader,
    private readonly state: ExchangeStateReader,
    private readonly sessionKeys: SessionKeysReader,
  ) {}

  /** The connection's active session key, or `no_trading_session` saying how to get one. */
  async requireSession(wallet: string, ctx: ToolContext): Promise<SessionKeyInfo> {
    if (!ctx.sessionKey)
      throw toolErrors.noTradingSession('This connection has no trading session, so it can read but not trade.');
    const key = await this.sessionKeys.find(wallet, ctx.sessionKey);
    if (!key) throw toolErrors.noTradingSession('The exchange has not registered the session key of this connection.');
    if (key.revokedAt)
      throw toolErrors.noTradingSession('The wallet owner revoked the trading session of this connection.');
    if (!key.active)
      throw toolErrors.noTradingSession(
        `The trading session of this connection expired at ${key.expiresAt.toISOString()}.`,
      );
    return key;
  }

  /** What the checks read: the live price, market states and the account's balance and usage. */
  async snapshot(wallet: string, market: Market): Promise<TradeSnapshot> {
    const [price, state, account] = await Promise.all([
      this.prices.fresh(market),
      this.state.read(),
      tradingAccount(this.db, wallet),
    ]);
    return { price, state, account: account ?? null };
  }

  /** Exchange limits, balance and guardrails, in the exchange's order; throws the first refusal. */
  evaluate(snapshot: TradeSnapshot, session: SessionKeyInfo, terms: TradeTerms): CheckedTrade {
    const { price, state, account } = snapshot;
    if (!account)
      throw new ToolError(
        ToolErrorCode.TradeRefused,
        'This wallet has no exchange account yet; deposit at least 10 USDC first (see get_deposit_info).',
      );
    const market = state.markets[terms.market];
    const availableMicro = account.freeMicro + account.queuedMicro;
    const result: OpenCheckResult = checkOpen({
      ...terms,
      config: market.config,
      tradingEnabled: state.tradingEnabled,
      availableBalanceMicro: availableMicro,
      sideOpenInterestMicro: terms.side === 'long' ? market.longOpenInterestMicro : market.shortOpenInterestMicro,
      guardrails: session.guardrails,
      dailyNotionalUsedMicro: account.dailyNotionalMicro,
      openPositionCount: account.openPositions,
    });
    if (!result.ok) throw refusalError(result.reason, result.message);
    return { price, notionalMicro: result.notionalMicro, availableMicro };
  }
}
