import { Logger } from '@nestjs/common';
import { type IntentResult, intentResultsChannel, parseIntentResults } from '@paper/contracts';
import { createRedisSubscriber, type RedisSettings } from '@paper/nest-infra';
import type { Redis } from 'ioredis';

/** Reads the final results of intents from `exchange.intents` (ids not final yet are left out). */
export type FinalResultsReader = (ids: readonly string[]) => Promise<ReadonlyMap<string, IntentResult>>;

/** Callers waiting for some intents: the results found so far, complete once every one is final. */
export interface ResultWait {
  /** Resolves with the results found by `deadline` (ms since the epoch), or sooner once every intent is final. */
  results(deadline: number): Promise<Map<string, IntentResult>>;
  /** Stops waiting (the results found so far stay in `results`). */
  cancel(): void;
}

/** How often waits are checked against the inbox while the result messages arrive, and while they cannot. */
const CHECK_MS = 1000;
const OUTAGE_CHECK_MS = 250;

/**
 * Waits for intents' final results. They arrive on the executors' result messages (Redis pub/sub, one
 * subscriber connection per process, one message per batch); a message that cannot arrive (Redis down,
 * the subscription reconnecting, an executor that died between its commit and its message) is made up
 * for by reading the inbox: for waits older than a second while subscribed, every 250 ms while the
 * subscription is down, and at once when it is back. Register a wait before waking the executor up, so
 * no message can come before it.
 */
export class IntentResultWaits {
  private readonly logger = new Logger('IntentResults');
  private readonly waiting = new Map<string, Set<(result: IntentResult) => void>>();
  private readonly since = new Map<string, number>();
  private subscriber?: Redis;
  private subscribed: Promise<void> | null = null;
  private ready: Promise<void> | null = null;
  private live = false;
  private timer?: NodeJS.Timeout;
  private checking = false;
  private closed = false;

  constructor(
    private readonly redis: RedisSettings,
    private readonly readFinal: FinalResultsReader,
  ) {}

  /**
   * Subscribes (once per process): resolves when subscribed, or `timeoutMs` after the first call, whichever
   * is first. Later calls wait for the same first attempt only, so while Redis stays unreachable nobody
   * waits again (the waits are answered from the inbox).
   */
  listen(timeoutMs: number): Promise<void> {
    this.ready ??= this.firstSubscription(timeoutMs);
    return this.ready;
  }

  private async firstSubscription(timeoutMs: number): Promise<void> {
    this.subscribed = this.subscribe();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.subscribed.catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, timeoutMs)))),
    ]);
    clearTimeout(timer);
  }

  expect(ids: readonly string[]): ResultWait {
    const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
    const found = new Map<string, IntentResult>();
    let complete!: () => void;
    const done = new Promise<void>((resolve) => (complete = resolve));
    const handlers = new Map<string, (result: IntentResult) => void>();
    for (const id of wanted) {
      const handler = (result: IntentResult) => {
        found.set(id, result);
        this.drop(id, handler);
        if (found.size === wanted.length) complete();
      };
      handlers.set(id, handler);
      this.waiting.set(id, (this.waiting.get(id) ?? new Set()).add(handler));
      if (!this.since.has(id)) this.since.set(id, Date.now());
    }
    if (wanted.length === 0) complete();
    this.schedule();
    const cancel = () => {
      for (const [id, handler] of handlers) this.drop(id, handler);
      complete();
    };
    return {
      results: async (deadline) => {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          done,
          new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now())))),
        ]);
        clearTimeout(timer);
        cancel();
        return found;
      },
      cancel,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const subscriber = this.subscriber;
    if (!subscriber) return;
    // QUIT waits for a connection that is down (the offline queue keeps it): disconnect instead.
    if (subscriber.status === 'ready') await subscriber.quit().catch(() => subscriber.disconnect());
    else subscriber.disconnect();
  }

  private async subscribe(): Promise<void> {
    const subscriber = createRedisSubscriber(this.redis);
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, message: string) => this.deliver(parseIntentResults(message)));
    subscriber.on('close', () => {
      this.live = false;
    });
    subscriber.on('ready', () => {
      // ioredis subscribes again on reconnection: results published meanwhile are read from the inbox.
      if (!this.subscribed || this.live) return;
      this.live = true;
      void this.check(0);
    });
    await subscriber.subscribe(intentResultsChannel(this.redis.REDIS_PREFIX));
    this.live = true;
  }

  private deliver(results: readonly IntentResult[]): void {
    for (const result of results) {
      for (const handler of [...(this.waiting.get(result.intentId.toLowerCase()) ?? [])]) handler(result);
    }
  }

  private drop(id: string, handler: (result: IntentResult) => void): void {
    const handlers = this.waiting.get(id);
    handlers?.delete(handler);
    if (handlers && handlers.size > 0) return;
    this.waiting.delete(id);
    this.since.delete(id);
  }

  private schedule(): void {
    if (this.timer || this.closed || this.waiting.size === 0) return;
    const every = this.live ? CHECK_MS : OUTAGE_CHECK_MS;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.check(every);
    }, every);
    this.timer.unref();
  }

  /** Reads the inbox for the waits older than `olderThanMs`, then schedules the next check while waits remain. */
  private async check(olderThanMs: number): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const cutoff = Date.now() - olderThanMs;
      const ids = [...this.since].filter(([, at]) => at <= cutoff).map(([id]) => id);
      if (ids.length > 0) this.deliver([...(await this.readFinal(ids)).values()]);
    } catch (error) {
      this.logger.debug(`inbox check failed: ${(error as Error).message}`);
    } finally {
      this.checking = false;
      this.schedule();
    }
  }
}
