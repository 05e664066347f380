import type { IntentResult, SignedIntentPayload } from '@paper/contracts';
import type { Market } from '@paper/exchange';
import {
  lockAccounts,
  lockPool,
  lockPositionsOf,
  MARKET_ROWS,
  type MarketRow,
  marketStateOf,
  openedTodaySql,
  sessionKeyApprovals,
} from '@paper/exchange-data';
import { queryRows } from '@paper/sql-rows';
import type { Sql } from '../../database/sql-transaction';
import type { FreshPrice } from '../../prices/price-book.service';
import { type IntentOutcome, refused, toResultOf } from '../intent-message';
import { type ApprovalCache, checkSessionKey } from '../session-key-check';
import { admitAll, type SignatureCheck } from './admission';
import type { DailyNotionalRow, OpenCountRow } from './batch-rows';
import { type AdmittedIntent, type BatchState, batchAccount, type ClosePayload, type OpenPayload } from './batch-state';
import { writeBatch } from './batch-writes';
import { cancelStep, type PendingTargets } from './cancel-step';
import { closeIds, closeStep } from './close-step';
import type { ClaimedIntentRow } from './intent-claim';
import { openStep } from './open-step';

export interface BatchEnvironment {
  /** The mid of each market for the whole batch (read before the transaction), or null when stale. */
  readonly prices: ReadonlyMap<Market, FreshPrice | null>;
  readonly now: Date;
  readonly signatures: SignatureCheck;
  readonly approvals: ApprovalCache;
}

/** Largest id a position can have (bigserial); a listed id above it cannot exist. */
const MAX_POSITION_ID = 9_223_372_036_854_775_807n;

/**
 * Executes claimed intents in the caller's transaction, set-based like a liquidation pass: one price per
 * market, the accounts locked once (sorted), the session keys, positions, pool and markets read once, every
 * intent decided in memory in acceptance order (cancels first), then one write of each kind and every
 * result stored in its intent row. A refusal refuses that intent only. Returns the results.
 */
export async function executeBatch(
  sql: Sql,
  claimed: readonly ClaimedIntentRow[],
  env: BatchEnvironment,
): Promise<IntentResult[]> {
  const state: BatchState = {
    now: env.now,
    prices: env.prices,
    accounts: new Map(),
    positions: new Map(),
    markets: new Map(),
    tradingEnabled: true,
    pool: null,
    feesCollectedMicro: 0n,
    paperMintedMicro: 0n,
    ledger: [],
    newPositions: [],
    settled: [],
    queueOps: [],
    results: new Map(),
  };
  const base = new Map(claimed.map((r) => [r.id, { kind: r.kind, wallet: r.wallet }]));
  const finish = (id: string, outcome: IntentOutcome) =>
    state.results.set(id, toResultOf(id, base.get(id)!.kind, base.get(id)!.wallet, outcome, env.now));

  let admitted: AdmittedIntent[] = [];
  const admissions = await admitAll(claimed, env.signatures, env.now);
  claimed.forEach((row, i) => {
    const a = admissions[i]!;
    if (a.ok) admitted.push({ id: row.id, wallet: row.wallet, payload: a.payload });
    else finish(row.id, a.outcome);
  });
  const accounts = await lockAccounts(
    sql,
    admitted.map((a) => a.wallet),
  );
  const keys = await sessionKeyApprovals(
    sql,
    admitted.map((a) => a.payload.sessionKey),
  );
  const checked: AdmittedIntent[] = [];
  for (const a of admitted) {
    const key = await checkSessionKey(keys.get(a.payload.sessionKey.toLowerCase()), a.wallet, env.approvals, env.now);
    if (!key.ok) finish(a.id, key.outcome);
    else if (!accounts.has(a.wallet))
      finish(
        a.id,
        refused(
          'account_not_found',
          'This wallet has no exchange account yet; approve a trading session and deposit first.',
        ),
      );
    else checked.push({ ...a, guardrails: key.guardrails });
  }
  admitted = checked;
  for (const [wallet, row] of accounts) state.accounts.set(wallet, batchAccount(row));

  const pending: PendingTargets = new Map(admitted.map((a) => [a.id, { wallet: a.wallet, kind: a.payload.kind }]));
  for (const a of admitted) {
    if (!isKind(a, 'cancel') || !pending.delete(a.id)) continue;
    finish(a.id, await cancelStep(sql, state, a, pending));
  }
  const rest = admitted.filter((a) => pending.has(a.id));
  await loadPositions(sql, state, rest);
  // The protocol row serialises every settlement, so it is locked as late as the lock order allows:
  // after the reads, or before the market rows when opens under a cap lock them.
  const lockPoolIfSettling = async () => {
    if (state.pool || ![...state.positions.values()].some((r) => r.status === 'open')) return;
    state.pool = await lockPool(sql);
    state.tradingEnabled = state.pool.tradingEnabled;
  };
  await loadMarkets(sql, state, rest, lockPoolIfSettling);
  await loadGuardrailUsage(sql, state, rest);
  await lockPoolIfSettling();
  for (const a of rest) {
    if (isKind(a, 'open')) {
      const refusal = openStep(state, a);
      if (refusal) finish(a.id, refusal);
    } else if (isKind(a, 'close')) {
      finish(a.id, closeStep(state, a));
    }
  }
  await writeBatch(sql, state, base);
  return [...state.results.values()];
}

function isKind<K extends SignedIntentPayload['kind']>(
  a: AdmittedIntent,
  kind: K,
): a is AdmittedIntent<Extract<SignedIntentPayload, { kind: K }>> {
  return a.payload.kind === kind;
}

/** Locks the positions the batch's closes list (of the batch's wallets only). */
async function loadPositions(sql: Sql, state: BatchState, intents: readonly AdmittedIntent[]): Promise<void> {
  const closes = intents.filter((a): a is AdmittedIntent<ClosePayload> => isKind(a, 'close'));
  const ids = [...new Set(closes.flatMap((a) => closeIds(a.payload)))].filter((id) => BigInt(id) <= MAX_POSITION_ID);
  if (ids.length === 0) return;
  const rows = await lockPositionsOf(sql, ids, [...new Set(closes.map((a) => a.wallet))]);
  for (const r of rows) state.positions.set(r.id, r);
}

/**
 * Reads the markets and the trading switch; locks the market rows when an open must see concurrent opens
 * under a cap (after `beforeLock`, which takes the protocol row first when the batch settles positions).
 */
async function loadMarkets(
  sql: Sql,
  state: BatchState,
  intents: readonly AdmittedIntent[],
  beforeLock: () => Promise<void>,
): Promise<void> {
  const read = (lock: boolean) =>
    queryRows<MarketRow>(sql, `${MARKET_ROWS} ORDER BY m.market${lock ? ' FOR UPDATE OF m' : ''}`);
  let rows = await read(false);
  const opens = intents.filter((a): a is AdmittedIntent<OpenPayload> => isKind(a, 'open'));
  const capped = opens.some((a) => {
    const row = rows.find((r) => r.market === a.payload.message.market);
    return (a.payload.message.side === 'long' ? row?.long_oi_cap_micro : row?.short_oi_cap_micro) != null;
  });
  if (capped) {
    await beforeLock();
    rows = await read(true); // the cap check must see every concurrent open
  }
  for (const r of rows) {
    state.markets.set(r.market, { ...marketStateOf(r), longDeltaMicro: 0n, shortDeltaMicro: 0n });
    state.tradingEnabled = state.pool?.tradingEnabled ?? r.trading_enabled;
  }
}

/** Open positions and notional opened today, for the wallets whose guardrails limit them. */
async function loadGuardrailUsage(sql: Sql, state: BatchState, intents: readonly AdmittedIntent[]): Promise<void> {
  const opens = intents.filter((a): a is AdmittedIntent<OpenPayload> => isKind(a, 'open'));
  const daily = [...new Set(opens.filter((a) => a.guardrails!.maxDailyNotionalUsd !== null).map((a) => a.wallet))];
  const counted = [...new Set(opens.filter((a) => a.guardrails!.maxOpenPositions !== null).map((a) => a.wallet))];
  if (daily.length > 0) {
    const rows = await queryRows<DailyNotionalRow>(
      sql,
      `SELECT wallet, sum(notional_micro) AS total FROM exchange.positions
        WHERE wallet = ANY($1::varchar[]) AND ${openedTodaySql()} GROUP BY wallet`,
      [daily],
    );
    for (const r of rows) state.accounts.get(r.wallet)!.dailyNotionalMicro = BigInt(r.total);
  }
  if (counted.length > 0) {
    const rows = await queryRows<OpenCountRow>(
      sql,
      `SELECT wallet, count(*) AS n FROM exchange.positions WHERE wallet = ANY($1::varchar[]) AND status = 'open'
         GROUP BY wallet`,
      [counted],
    );
    for (const r of rows) state.accounts.get(r.wallet)!.openPositions += Number(r.n);
  }
}
