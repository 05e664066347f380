import type { IntentResult, SignedIntentPayload } from '@paper/contracts';
import type { AccountDelta, Guardrails, Market } from '@paper/exchange';
import {
  type MarketState,
  type PositionRow,
  type LockedAccount,
  type LedgerTx,
  type LockedPool,
} from '@paper/exchange-data';
import type { FreshPrice } from '../../prices/price-book.service';
import type { IntentOutcome } from '../intent-message';

export type OpenPayload = Extract<SignedIntentPayload, { kind: 'open' }>;
export type ClosePayload = Extract<SignedIntentPayload, { kind: 'close' }>;
export type CancelPayload = Extract<SignedIntentPayload, { kind: 'cancel' }>;

/** An intent of the batch that passed admission (id, signature, expiry, session key, account). */
export interface AdmittedIntent<P extends SignedIntentPayload = SignedIntentPayload> {
  readonly id: string;
  readonly wallet: string;
  readonly payload: P;
  /** The session key's guardrails (set once the key is checked). */
  guardrails?: Guardrails;
}

/** A wallet's balances as the batch moves them (starting from the locked row). */
export interface BatchAccount {
  freeMicro: bigint;
  queuedMicro: bigint;
  /** What the batch changes, written in one statement at the end. */
  delta: AccountDelta;
  volumeMicro: bigint;
  /** Guardrail usage: open positions and notional opened today (loaded only when a guardrail needs them). */
  openPositions: number;
  dailyNotionalMicro: bigint;
}

export interface BatchMarket extends MarketState {
  /** Net change of open interest by the batch. */
  longDeltaMicro: bigint;
  shortDeltaMicro: bigint;
}

/** A position opened by the batch, inserted set-based before its ledger lines (which reference its id). */
export interface NewPosition extends Pick<
  PositionRow,
  'wallet' | 'market' | 'side' | 'marginMicro' | 'leverage' | 'notionalMicro' | 'entryPrice' | 'bustPrice'
> {
  intentId: string;
  marginQueuedMicro: bigint;
  ledger: Omit<LedgerTx, 'ref'>;
  /** The outcome once the position id is known. */
  outcome: (positionId: string) => IntentOutcome;
}

export interface SettledPosition {
  id: string;
  status: 'closed' | 'liquidated';
  exit: bigint;
  pnlMicro: bigint;
  feeMicro: bigint;
  queuedMicro: bigint;
  rewardMintedMicro: bigint;
  intentId: string;
}

/** Payout-queue changes in the order the closes made them (appends of unpaid wins, cancellations of own claims). */
export type QueueOp =
  | { kind: 'append'; wallet: string; positionId: string; amountMicro: bigint; feeMicro: bigint }
  | { kind: 'cancel-own'; wallet: string; amountMicro: bigint };

/** Everything one batch transaction reads once and writes once. */
export interface BatchState {
  readonly now: Date;
  readonly prices: ReadonlyMap<Market, FreshPrice | null>;
  readonly accounts: Map<string, BatchAccount>;
  readonly positions: Map<string, PositionRow>;
  readonly markets: Map<Market, BatchMarket>;
  tradingEnabled: boolean;
  /** The protocol pool, locked once for the batch when a close settles anything. */
  pool: LockedPool | null;
  feesCollectedMicro: bigint;
  paperMintedMicro: bigint;
  readonly ledger: LedgerTx[];
  readonly newPositions: NewPosition[];
  readonly settled: SettledPosition[];
  readonly queueOps: QueueOp[];
  /** Final results by intent id (cancelled targets included). */
  readonly results: Map<string, IntentResult>;
}

export function emptyDelta(): AccountDelta {
  return { freeMicro: 0n, lockedMicro: 0n, queuedMicro: 0n, realizedPnlMicro: 0n, paperMicro: 0n };
}

export function batchAccount(row: LockedAccount): BatchAccount {
  return {
    freeMicro: row.freeMicro,
    queuedMicro: row.queuedMicro,
    delta: emptyDelta(),
    volumeMicro: 0n,
    openPositions: 0,
    dailyNotionalMicro: 0n,
  };
}
