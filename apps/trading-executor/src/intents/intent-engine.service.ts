import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { IntentResult } from '@paper/contracts';
import { MARKETS, type Market } from '@paper/exchange';
import { recordFailedAttempt } from '@paper/exchange-data';
import { APP_CONFIG, databaseAnswers } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import { inTransaction, type Sql } from '../database/sql-transaction';
import { intentBatchDuration, intentBatchSize, intentDuration, intentsExecuted } from '../metrics/executor-metrics';
import { type FreshPrice, PriceBook } from '../prices/price-book.service';
import { claimIntentsById, claimQueuedIntents, type ClaimedIntentRow } from './batch/intent-claim';
import { executeBatch } from './batch/intent-batch';
import { refused, toResultOf } from './intent-message';
import { SignatureChecks } from './batch/signature-checks';
import { ApprovalCache } from './session-key-check';
import { IntentResultsPublisher } from './intent-results.publisher';
import { EXECUTION_FAILED } from '../inbox/execution-failed';

type EngineConfig = Pick<TradingExecutorConfig, 'INTENT_CONCURRENCY' | 'INTENT_BATCH_MAX' | 'PRICE_WARMUP_MS'>;
type BatchPrices = Map<Market, FreshPrice | null>;

const MAX_BACKOFF_MS = 5000;
/** How often a starting replica looks for the fresh prices its batches wait for. */
const WARMUP_POLL_MS = 100;

/**
 * Runs the queued intents of `exchange.intents` in batches: up to INTENT_CONCURRENCY batch transactions
 * at a time on this replica, each claiming up to INTENT_BATCH_MAX rows (`FOR UPDATE SKIP LOCKED`, oldest
 * first), so batches of every replica are disjoint. A wake-up (a queue job, the sweeper) starts a batch
 * at once when a slot is free: at low load a batch is the one intent that just arrived; under load the
 * claims grow up to the maximum. A batch that fails is retried intent by intent so one intent that
 * cannot run never holds the others back; an outage of PostgreSQL or Redis pauses the claims with backoff
 * and leaves every intent queued.
 */
@Injectable()
export class IntentEngine implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Intents');
  private readonly approvals = new ApprovalCache();
  /** Session keys sign every intent: large batches check them on a worker thread. */
  private readonly signatures = new SignatureChecks();
  /** Intents that failed on their own, and when this replica may try them again (1 s, then 2 s). */
  private readonly cooling = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private wanted = false;
  private backoffMs = 0;
  private backoffTimer?: NodeJS.Timeout;
  private stopped = false;
  private backlogListener: () => void = () => undefined;
  /** Until then, a batch waits while some market has no fresh price (the first polls after a start). */
  private readonly warmUntil: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly prices: PriceBook,
    private readonly results: IntentResultsPublisher,
    @Inject(APP_CONFIG) private readonly config: EngineConfig,
  ) {
    this.warmUntil = Date.now() + config.PRICE_WARMUP_MS;
  }

  /** Starts batches while slots are free and queued intents may exist (a wake-up, the sweeper). */
  pump(): void {
    this.wanted = true;
    if (this.stopped || this.backoffTimer) return;
    while (this.wanted && this.running.size < this.config.INTENT_CONCURRENCY) {
      this.wanted = false;
      const run: Promise<void> = this.cycle().finally(() => {
        this.running.delete(run);
        this.afterCycle();
      });
      this.running.add(run);
    }
  }

  /**
   * Claims once more after the batches running now (at once when none runs): for a wake-up that may have
   * been ignored while its job was active, whose intents a claim made after that moment sees.
   */
  claimAfterRunning(): void {
    this.wanted = true;
    if (this.running.size === 0) this.pump();
  }

  /**
   * Called whenever a claim comes back full (a backlog): the queue then wakes the other replicas too, so
   * every replica claims beside this one instead of only the one the first wake-up reached.
   */
  onBacklog(listener: () => void): void {
    this.backlogListener = listener;
  }

  /** Resolves when no batch runs (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.backoffTimer);
    await this.idle();
    await this.signatures.close();
  }

  /** One batch: prices first (no Redis inside the transaction), then claim, execute and store. */
  private async cycle(): Promise<void> {
    let claimed: ClaimedIntentRow[] = [];
    try {
      const prices = await this.readPrices();
      if (this.warmingUp(prices)) return this.pause(WARMUP_POLL_MS);
      await this.runBatch(
        (sql) => claimQueuedIntents(sql, this.config.INTENT_BATCH_MAX, this.coolingIds()),
        prices,
        (rows) => {
          claimed = rows;
          // A full claim means a backlog: the next batch claims at once, beside this one (up to
          // INTENT_CONCURRENCY), instead of after it, and the other replicas are woken to claim too.
          if (rows.length >= this.config.INTENT_BATCH_MAX) {
            queueMicrotask(() => this.pump());
            this.backlogListener();
          }
        },
      );
      // A batch of more than one means a backlog: keep claiming until it is drained, whether or not
      // more wake-ups arrive (at low load a batch is one intent and nothing more is claimed).
      if (claimed.length > 1) this.wanted = true;
      this.backoffMs = 0;
    } catch (error) {
      if (claimed.length > 0 && (await databaseAnswers(this.dataSource))) await this.runAlone(claimed);
      else this.backOff(error);
    }
  }

  /** Runs the intents of a failed batch one by one: the ones that can run do, the failing one is counted. */
  private async runAlone(rows: readonly ClaimedIntentRow[]): Promise<void> {
    for (const row of rows) {
      try {
        const prices = await this.readPrices();
        await this.runBatch(
          (sql) => claimIntentsById(sql, [row.id]),
          prices,
          () => undefined,
        );
      } catch (error) {
        if (!(await databaseAnswers(this.dataSource))) return this.backOff(error);
        const result = toResultOf(
          row.id,
          row.kind,
          row.wallet,
          refused(EXECUTION_FAILED.reason, EXECUTION_FAILED.message),
          new Date(),
        );
        const final = await inTransaction(this.dataSource, (sql) =>
          recordFailedAttempt(sql, 'intents', row, error, () => ({
            ...result,
            status: 'refused',
            reason: EXECUTION_FAILED.reason,
            result,
          })),
        ).catch(() => false);
        this.logger.error(`intent ${row.id} failed (attempt ${row.attempts + 1}): ${(error as Error).message}`);
        if (final) this.stored([result]);
        else this.coolDown(row.id, 1000 * (row.attempts + 1));
      }
    }
  }

  private async runBatch(
    claim: (sql: Sql) => Promise<ClaimedIntentRow[]>,
    prices: BatchPrices,
    onClaim: (rows: ClaimedIntentRow[]) => void,
  ): Promise<IntentResult[]> {
    const stop = intentBatchDuration.startTimer();
    let claimed: ClaimedIntentRow[] = [];
    try {
      const results = await inTransaction(this.dataSource, async (sql) => {
        claimed = await claim(sql);
        onClaim(claimed);
        if (claimed.length === 0) return [];
        return executeBatch(sql, claimed, {
          prices,
          now: new Date(),
          signatures: this.signatures,
          approvals: this.approvals,
        });
      });
      if (claimed.length > 0) intentBatchSize.observe(claimed.length);
      const now = Date.now();
      for (const row of claimed) intentDuration.observe({ kind: row.kind }, (now - row.created_at.getTime()) / 1000);
      this.stored(results);
      return results;
    } finally {
      stop();
    }
  }

  private stored(results: readonly IntentResult[]): void {
    this.results.publish(results);
    for (const r of results) intentsExecuted.inc({ kind: r.kind, status: r.status });
  }

  private async readPrices(): Promise<BatchPrices> {
    const fresh = await Promise.all(MARKETS.map((m) => this.prices.fresh(m)));
    return new Map(MARKETS.map((m, i) => [m, fresh[i]!]));
  }

  private coolingIds(): string[] {
    const now = Date.now();
    for (const [id, until] of this.cooling) if (until <= now) this.cooling.delete(id);
    return [...this.cooling.keys()];
  }

  private coolDown(id: string, ms: number): void {
    this.cooling.set(id, Date.now() + ms);
    setTimeout(() => this.pump(), ms + 10).unref();
  }

  /**
   * Whether this replica has just started and some market has no fresh price yet: its price ingest (or the
   * other replica's, once the lease of a killed one lapses) is about to publish one, so the queued intents
   * wait for it rather than be refused with `price_unavailable`. After PRICE_WARMUP_MS the usual rule holds.
   */
  private warmingUp(prices: BatchPrices): boolean {
    return Date.now() < this.warmUntil && [...prices.values()].some((p) => p === null);
  }

  private backOff(error: unknown): void {
    this.backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(100, this.backoffMs * 2));
    this.logger.warn(`intent batches paused for ${this.backoffMs} ms: ${(error as Error).message}`);
    this.pause(this.backoffMs);
  }

  /** No batch starts for `ms`; then the claims resume. */
  private pause(ms: number): void {
    this.wanted = true;
    clearTimeout(this.backoffTimer);
    this.backoffTimer = setTimeout(() => {
      this.backoffTimer = undefined;
      this.pump();
    }, ms);
  }

  /** After a batch: more claims if there may be more work. */
  private afterCycle(): void {
    if (this.wanted) this.pump();
  }
}
