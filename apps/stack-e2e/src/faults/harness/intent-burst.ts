import { callTool } from '../../tools/tool-test-kit';
import type { FaultLab } from './fault-lab';

/** One open_position call of a burst, as its caller saw it. */
export interface BurstCall {
  /** HTTP status; 0 when no answer came (connection refused or reset: the gateway is down). */
  status: number;
  ms: number;
  /** Set when the answer was 200: the intent was accepted (filled, or pending). */
  intentId?: string;
  outcome?: string;
  code?: string;
  retryAfter?: string | null;
  error?: string;
}

export interface Burst {
  calls: BurstCall[];
  /** Intent ids answered 200 (filled or pending): each must end exactly once in a definite state. */
  accepted: string[];
}

export interface BurstOptions {
  /** open_position calls in flight at once. */
  concurrency?: number;
  /** Calls made after `during` has finished (the burst goes on while the fault passes). */
  tail?: number;
  /** Calls made before `during` starts. */
  lead?: number;
}

/**
 * Sends open_position calls from the lab's traders (round robin, both markets, 10 USDC at 1000x (the minimum notional))
 * while `during` injects a fault, and records every answer.
 */
export async function intentBurst(
  lab: FaultLab,
  during: () => Promise<void>,
  options: BurstOptions = {},
): Promise<Burst> {
  const calls: BurstCall[] = [];
  let n = 0;
  let faultDone = false;
  let afterFault = 0;
  const lead = options.lead ?? 10;
  const tail = options.tail ?? 20;
  let leadDone!: () => void;
  const leadReached = new Promise<void>((resolve) => (leadDone = resolve));
  const one = async (): Promise<void> => {
    const i = n++;
    if (i + 1 >= lead) leadDone();
    const trader = lab.traders[i % lab.traders.length]!;
    const started = Date.now();
    try {
      const res = await callTool(
        lab.stack.baseUrl,
        'open_position',
        { market: i % 2 === 0 ? 'BTC' : 'ETH', side: i % 3 === 0 ? 'short' : 'long', marginUsd: 10, leverage: 1000 },
        { token: trader.token },
      );
      const data = res.body.data as { intentId?: string; status?: string } | undefined;
      calls.push({
        status: res.status,
        ms: Date.now() - started,
        intentId: res.status === 200 ? data?.intentId : undefined,
        outcome: data?.status,
        code: res.body.error?.code,
        retryAfter: res.headers.get('retry-after'),
      });
    } catch (error) {
      calls.push({ status: 0, ms: Date.now() - started, error: (error as Error).message });
    }
  };
  const worker = async (): Promise<void> => {
    while (!faultDone || afterFault < tail) {
      if (faultDone) afterFault += 1;
      await one();
    }
  };
  const workers = Array.from({ length: options.concurrency ?? 6 }, () => worker());
  await leadReached;
  try {
    await during();
  } finally {
    faultDone = true;
  }
  await Promise.all(workers);
  const accepted = calls.filter((c) => c.status === 200 && c.intentId).map((c) => c.intentId!);
  return { calls, accepted };
}

const DEFINITE = new Set(['executed', 'refused', 'expired', 'cancelled']);

/** What became of a burst: counts that must be zero are named for what went wrong. */
export interface BurstVerdict {
  calls: number;
  /** Answers by `<status> <outcome or error code>`. */
  answers: Record<string, number>;
  accepted: number;
  executed: number;
  /** Accepted intents with no definite state after the deadline (unknown to the exchange, or still queued). */
  lost: string[];
  /** Intents that ended refused because execution failed (a fault turned into a failure). */
  failedForGood: string[];
  /** Open intents with more than one position, or executed without exactly one. */
  duplicated: string[];
  /** Answers that are neither a success nor a documented refusal: 5xx other than 502/503, or no answer. */
  serverErrors: BurstCall[];
  /** 502/503 answers without Retry-After. */
  withoutRetryAfter: number;
  ledger: string[];
}

/**
 * Waits (up to `timeoutMs`) until every accepted intent of the burst has a definite state in the
 * exchange's records and through get_intent_status, then checks the books and the effects.
 */
export async function judgeBurst(lab: FaultLab, burst: Burst, timeoutMs = 60_000): Promise<BurstVerdict> {
  const ids = [...new Set(burst.accepted)];
  const deadline = Date.now() + timeoutMs;
  let rows: { id: string; status: string; reason: string | null }[] = [];
  for (;;) {
    rows = await lab.sql<{ id: string; status: string; reason: string | null }>(
      `SELECT id, status, reason FROM exchange.intents WHERE id = ANY($1)`,
      [ids],
    );
    const settled = rows.filter((r) => DEFINITE.has(r.status)).length;
    if (settled === ids.length || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  const lost: string[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row || !DEFINITE.has(row.status)) {
      lost.push(id);
      continue;
    }
    const seen = await callTool(lab.stack.baseUrl, 'get_intent_status', { intentId: id });
    if (seen.status !== 200 || seen.body.data?.['status'] !== row.status) lost.push(id);
  }
  const executed = rows.filter((r) => r.status === 'executed').map((r) => r.id);
  const positions = await lab.sql<{ intent: string; n: string }>(
    `SELECT open_intent_id AS intent, count(*) AS n FROM exchange.positions WHERE open_intent_id = ANY($1) GROUP BY 1`,
    [ids],
  );
  const perIntent = new Map(positions.map((p) => [p.intent, Number(p.n)]));
  const duplicated = ids.filter(
    (id) => (perIntent.get(id) ?? 0) > 1 || (executed.includes(id) && perIntent.get(id) !== 1),
  );
  const answers: Record<string, number> = {};
  for (const c of burst.calls) {
    const key = `${c.status} ${c.outcome ?? c.code ?? c.error ?? ''}`.trim();
    answers[key] = (answers[key] ?? 0) + 1;
  }
  return {
    calls: burst.calls.length,
    answers,
    accepted: ids.length,
    executed: executed.length,
    lost,
    failedForGood: rows.filter((r) => r.status === 'refused' && r.reason === 'execution_failed').map((r) => r.id),
    duplicated,
    serverErrors: burst.calls.filter(
      (c) => c.status === 0 || (c.status >= 500 && c.status !== 502 && c.status !== 503),
    ),
    withoutRetryAfter: burst.calls.filter((c) => (c.status === 502 || c.status === 503) && !c.retryAfter).length,
    ledger: await lab.auditLedger(),
  };
}

/** The verdict every experiment expects: all accepted intents ended once, nothing failed, nothing broke. */
export const CLEAN_VERDICT: Omit<BurstVerdict, 'calls' | 'answers' | 'accepted' | 'executed'> = Object.freeze({
  lost: [],
  failedForGood: [],
  duplicated: [],
  serverErrors: [],
  withoutRetryAfter: 0,
  ledger: [],
});
