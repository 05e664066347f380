import { createAlertsDataSource } from '@paper/alerts-data';
import { clearRedisPrefix, createMigratedDatabase, type TestDatabase } from '@paper/dev-stack';
import { ALERTS_DELIVERY_QUEUE, DELIVERIES_DUE_JOB_ID } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { queryRow } from '@paper/sql-rows';
import { Redis } from 'ioredis';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type AlertsDispatcherConfig, alertsDispatcherConfigSchema } from '../config/alerts-dispatcher.config';
import { DeliverySender } from '../deliveries/delivery-sender.service';
import { DeliveryStore } from '../deliveries/delivery-store';
import { DeliveryAttempts } from '../deliveries/delivery-attempts.service';
import { DeliveryProcessor } from '../deliveries/delivery.processor';

/** The dispatcher's services wired by hand against a fresh database and a unique Redis prefix (integration tests). */
export class DispatcherTestKit {
  readonly store: DeliveryStore;
  readonly queues: QueueRegistry;
  readonly attempts: DeliveryAttempts;
  readonly processor: DeliveryProcessor;

  private constructor(
    readonly database: TestDatabase,
    readonly db: DataSource,
    readonly redis: Redis,
    readonly config: AlertsDispatcherConfig,
  ) {
    this.store = new DeliveryStore(db);
    this.queues = new QueueRegistry(config);
    this.attempts = new DeliveryAttempts(this.store, new DeliverySender(config), config);
    this.processor = new DeliveryProcessor(this.queues, this.store, this.attempts, config);
  }

  static async start(env: Record<string, string>): Promise<DispatcherTestKit> {
    const { database, db } = await createMigratedDatabase('paper_dispatch', ['alerts'], (url) =>
      createAlertsDataSource({ url, poolSize: 5, applicationName: 'dispatcher-int-test' }),
    );
    const config = alertsDispatcherConfigSchema.parse({
      DATABASE_URL: database.url,
      REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
      ...env,
    });
    return new DispatcherTestKit(database, db, new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 }), config);
  }

  async stop(): Promise<void> {
    await this.processor.beforeApplicationShutdown();
    this.attempts.onApplicationShutdown();
    await this.queues.onApplicationShutdown();
    await clearRedisPrefix(this.redis, this.config.REDIS_PREFIX);
    await this.db.destroy();
    await this.database.drop();
  }

  async account(): Promise<string> {
    const id = randomUUID();
    await this.db.query(`INSERT INTO alerts.accounts (id, token_hash) VALUES ($1, $2)`, [
      id,
      randomBytes(32).toString('hex'),
    ]);
    return id;
  }

  async channel(
    accountId: string,
    kind: 'webhook' | 'discord' | 'telegram',
    target: string,
    secret: string | null = null,
    status = 'active',
  ): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO alerts.channels (id, account_id, kind, target, secret, status) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, accountId, kind, target, secret, status],
    );
    return id;
  }

  /** An alert with one queued delivery to `channelId`; returns the delivery id and event id. */
  async delivery(
    accountId: string,
    channelId: string,
    kind = 'position_opened',
    createdAgoMs = 0,
  ): Promise<{ id: string; eventId: string }> {
    const alertId = randomUUID();
    const eventId = `evt_${randomBytes(12).toString('hex')}`;
    await this.db.query(
      `INSERT INTO alerts.alerts (id, account_id, event_id, kind, wallet, details, occurred_at) VALUES ($1, $2, $3, $4, $5, $6, now())`,
      [
        alertId,
        accountId,
        eventId,
        kind,
        '0x52908400098527886e0f7030069857d2e4169ee7',
        JSON.stringify({
          positionId: '7',
          market: 'BTC',
          side: 'long',
          leverage: 100,
          marginUsd: 100,
          entryPrice: 100000,
          notionalUsd: 10000,
        }),
      ],
    );
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO alerts.deliveries (id, account_id, alert_id, channel_id, event_id, status, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, 'queued', now() - make_interval(secs => $6::double precision / 1000), now() - make_interval(secs => $6::double precision / 1000))`,
      [id, accountId, alertId, channelId, eventId, createdAgoMs],
    );
    return { id, eventId };
  }

  /** Wakes the dispatchers as the poller and the API do: one `deliveries-due` job. */
  async wakeUp(): Promise<void> {
    await this.queues.add(ALERTS_DELIVERY_QUEUE, 'deliveries-due', {}, { jobId: DELIVERIES_DUE_JOB_ID });
  }

  async row(
    id: string,
  ): Promise<{ status: string; attempts: number; last_error: string | null; next_attempt_at: Date | null }> {
    const r = await queryRow<{
      status: string;
      attempts: number;
      last_error: string | null;
      next_attempt_at: Date | null;
    }>(this.db, `SELECT status, attempts, last_error, next_attempt_at FROM alerts.deliveries WHERE id = $1`, [id]);
    return r!;
  }

  async channelRow(id: string): Promise<{ status: string; disabled_reason: string | null }> {
    const r = await queryRow<{ status: string; disabled_reason: string | null }>(
      this.db,
      `SELECT status, disabled_reason FROM alerts.channels WHERE id = $1`,
      [id],
    );
    return r!;
  }
}

/** Polls until the check passes (no fixed sleeps standing in for readiness). */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 15000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
