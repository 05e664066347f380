import { bustPrice, checkOpen, marketConfig, microToUsdc, openAccounting, scaledToPrice } from '@paper/exchange';
import { type IntentOutcome, refused } from '../intent-message';
import type { AdmittedIntent, BatchState, OpenPayload } from './batch-state';

export const PRICE_UNAVAILABLE_MESSAGE = (market: string) =>
  `No recent ${market} price is available from the venue, so nothing was executed; try again in a few seconds.`;

/**
 * Opens a position at the batch's mid of the market: the checks of `checkOpen` against the wallet's
 * balance as the batch left it (earlier intents of the batch included), the market's open interest and
 * the guardrails; then the margin is locked in memory and the position queued for the batch's insert.
 * Returns a refusal, or null when the open is part of the batch's writes.
 */
export function openStep(state: BatchState, intent: AdmittedIntent<OpenPayload>): IntentOutcome | null {
  const { market, side, leverage } = intent.payload.message;
  const marginMicro = BigInt(intent.payload.message.marginMicro);
  const price = state.prices.get(market);
  if (!price) return refused('price_unavailable', PRICE_UNAVAILABLE_MESSAGE(market));
  const account = state.accounts.get(intent.wallet)!;
  const m = state.markets.get(market)!;
  const guardrails = intent.guardrails!;
  const check = checkOpen({
    market,
    side,
    marginMicro,
    leverage,
    config: m.config,
    tradingEnabled: state.tradingEnabled,
    availableBalanceMicro: account.freeMicro + account.queuedMicro,
    sideOpenInterestMicro:
      side === 'long' ? m.longOpenInterestMicro + m.longDeltaMicro : m.shortOpenInterestMicro + m.shortDeltaMicro,
    guardrails,
    dailyNotionalUsedMicro: account.dailyNotionalMicro,
    openPositionCount: account.openPositions,
  });
  if (!check.ok) return refused(check.reason, check.message);

  const entry = price.mid;
  const bust = bustPrice(side, entry, leverage, m.config.bustBuffer);
  const lock = openAccounting(intent.wallet, account.freeMicro, account.queuedMicro, marginMicro);
  account.freeMicro -= lock.fromFreeMicro;
  account.queuedMicro -= lock.fromQueuedMicro;
  account.delta = {
    ...account.delta,
    freeMicro: account.delta.freeMicro - lock.fromFreeMicro,
    queuedMicro: account.delta.queuedMicro - lock.fromQueuedMicro,
    lockedMicro: account.delta.lockedMicro + marginMicro,
  };
  account.volumeMicro += check.notionalMicro;
  account.openPositions += 1;
  account.dailyNotionalMicro += check.notionalMicro;
  if (side === 'long') m.longDeltaMicro += check.notionalMicro;
  else m.shortDeltaMicro += check.notionalMicro;

  const d = marketConfig(market).priceDecimals;
  state.newPositions.push({
    intentId: intent.id,
    wallet: intent.wallet,
    market,
    side,
    marginMicro,
    leverage,
    notionalMicro: check.notionalMicro,
    entryPrice: entry,
    bustPrice: bust,
    marginQueuedMicro: lock.fromQueuedMicro,
    ledger: { lines: lock.lines, reason: 'open' },
    outcome: (positionId) => ({
      status: 'executed',
      reason: null,
      message:
        `Opened ${side} ${market} #${positionId}: ${microToUsdc(marginMicro)} USDC margin at ${leverage}x, ` +
        `entry ${scaledToPrice(entry, d)}, liquidation at ${scaledToPrice(bust, d)}.`,
      opened: {
        positionId,
        market,
        side,
        marginUsd: microToUsdc(marginMicro),
        leverage,
        notionalUsd: microToUsdc(check.notionalMicro),
        entryPrice: scaledToPrice(entry, d),
        bustPrice: scaledToPrice(bust, d),
        marginFromQueuedUsd: microToUsdc(lock.fromQueuedMicro),
      },
    }),
  });
  return null;
}
