import { Logger } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '../metrics/metrics';

/** A repeatable job: BullMQ job scheduler `name` on `queue`, adding a job named `name` every `everyMs`. */
export interface JobSchedule {
  queue: string;
  name: string;
  everyMs: number;
  opts?: JobsOptions;
}

/** How often (ms) the keeper checks that every schedule exists and ran recently. */
export const SCHEDULE_CHECK_MS = 5_000;

/** A schedule is stale (readiness and metrics say so) when it last ran more than this long ago. */
export function staleAfterMs(everyMs: number): number {
  return Math.max(3 * everyMs, everyMs + 60_000);
}

const lastRunAge = new Gauge({
  name: 'queue_schedule_last_run_age_seconds',
  help: 'Seconds since a repeatable job last completed (since it was created or re-created, before its first run)',
  labelNames: ['queue', 'schedule'],
  registers: [metricsRegistry],
});
const staleGauge = new Gauge({
  name: 'queue_schedule_stale',
  help: '1 when a repeatable job has not completed for more than max(3 intervals, 1 interval + 60 s)',
  labelNames: ['queue', 'schedule'],
  registers: [metricsRegistry],
});
const recreated = new Counter({
  name: 'queue_schedule_recreated_total',
  help:
    'Job schedulers created again because they were missing from Redis (Redis restarted empty) or had stopped ' +
    'firing',
  labelNames: ['queue', 'schedule'],
  registers: [metricsRegistry],
});

interface Tracked extends JobSchedule {
  /** Last completed run known here (ms), from this process or the shared record in Redis. */
  lastRun: number;
  /** When this process last created the scheduler (ms): the age counts from there until a run. */
  createdAt: number;
  /** When this process last upserted the scheduler (ms; 0 = not yet). */
  upsertedAt: number;
}

/**
 * Keeps the app's BullMQ job schedulers alive: creates them at start, and again whenever they are missing
 * (Redis restarted without persistence, keys lost) or stopped firing, on every Redis reconnection and
 * every SCHEDULE_CHECK_MS. Each completed run is recorded in Redis (hash `<prefix>:schedules:last-run`,
 * shared by the replicas), so readiness and metrics report a schedule whose last run is too old.
 */
export class ScheduleKeeper {
  private readonly logger = new Logger('Schedules');
  private readonly schedules = new Map<string, Tracked>();
  private timer?: NodeJS.Timeout;
  private checking?: Promise<void>;
  private checkAgain = false;
  private readonly watched = new WeakSet<object>();

  constructor(
    private readonly queueOf: (queue: string) => Queue,
    private readonly recordKey: string,
  ) {}

  /** Declares a schedule and installs it (in the background: an unreachable Redis never blocks start-up). */
  add(schedule: JobSchedule): void {
    const key = `${schedule.queue}/${schedule.name}`;
    const now = Date.now();
    this.schedules.set(key, { ...schedule, lastRun: 0, createdAt: now, upsertedAt: 0 });
    this.watchReconnects(this.queueOf(schedule.queue));
    this.timer ??= setInterval(() => void this.check(), SCHEDULE_CHECK_MS).unref();
    void this.check();
  }

  get size(): number {
    return this.schedules.size;
  }

  /** Called by the worker after a run of `name` on `queue` completed. */
  async recordRun(queue: string, name: string): Promise<void> {
    const tracked = this.schedules.get(`${queue}/${name}`);
    if (!tracked) return;
    tracked.lastRun = Date.now();
    try {
      const client = await this.queueOf(queue).backend.client;
      await client.hset(this.recordKey, { [`${queue}/${name}`]: String(tracked.lastRun) });
    } catch {
      // Redis unreachable: this replica still knows; the record is written again at the next run.
    }
  }

  /** Schedules whose last run is too old, with why (empty when all are current). */
  stale(now = Date.now()): string[] {
    const out: string[] = [];
    for (const s of this.schedules.values()) {
      const since = Math.max(s.lastRun, s.createdAt);
      const age = now - since;
      lastRunAge.set({ queue: s.queue, schedule: s.name }, age / 1000);
      const isStale = age > staleAfterMs(s.everyMs);
      staleGauge.set({ queue: s.queue, schedule: s.name }, isStale ? 1 : 0);
      if (isStale)
        out.push(`${s.name} (${s.queue}) last ran ${Math.round(age / 1000)} s ago, every ${s.everyMs / 1000} s`);
    }
    return out;
  }

  /** Readiness: refreshes the shared run records, then fails when a schedule is missing or stale. */
  async readiness(): Promise<void> {
    await this.check();
    const missing = [...this.schedules.values()]
      .filter((s) => s.upsertedAt === 0)
      .map((s) => `${s.name} (${s.queue}) not created yet`);
    const problems = [...missing, ...this.stale()];
    if (problems.length > 0) throw new Error(problems.join('; '));
  }

  /**
   * One pass: reads the run records, re-creates what is missing or stale. Never throws. Asked while a
   * pass runs (a reconnection during a pass that met the outage), it runs another pass right after.
   */
  check(): Promise<void> {
    if (this.checking) {
      this.checkAgain = true;
      return this.checking;
    }
    this.checking = this.checkOnce().finally(() => {
      this.checking = undefined;
      if (this.checkAgain) {
        this.checkAgain = false;
        void this.check();
      }
    });
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    for (const s of this.schedules.values()) {
      try {
        const queue = this.queueOf(s.queue);
        const client = await queue.backend.client;
        const recorded = Number(await client.hget(this.recordKey, `${s.queue}/${s.name}`));
        if (Number.isFinite(recorded) && recorded > s.lastRun) s.lastRun = recorded;
        const exists = (await queue.getJobScheduler(s.name)) !== undefined;
        const now = Date.now();
        // A scheduler that exists but stopped firing (its next job lost) is re-created once per stale period,
        // never more often: re-creating it pushes its next run back.
        const stuck = exists && now - Math.max(s.lastRun, s.createdAt, s.upsertedAt) > staleAfterMs(s.everyMs);
        if (exists && s.upsertedAt > 0 && !stuck) continue;
        await queue.upsertJobScheduler(s.name, { every: s.everyMs }, { name: s.name, data: {}, opts: s.opts });
        if (s.upsertedAt > 0) {
          recreated.inc({ queue: s.queue, schedule: s.name });
          this.logger.warn(
            `job scheduler ${s.name} on ${s.queue} was ${exists ? 'not firing' : 'missing'}; created it again`,
          );
        }
        // Redis lost the scheduler (and with it the run records): its age counts from now.
        if (!exists) s.createdAt = now;
        s.upsertedAt = now;
      } catch {
        // Redis unreachable: the next pass (or the reconnection) tries again.
      }
    }
    this.stale();
  }

  /** Checks again as soon as the queue's Redis connection is back (a restarted Redis may have lost everything). */
  private watchReconnects(queue: Queue): void {
    if (this.watched.has(queue)) return;
    this.watched.add(queue);
    void queue.backend.client
      .then((client) => {
        client.on('ready', () => void this.check());
      })
      .catch(() => undefined);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
