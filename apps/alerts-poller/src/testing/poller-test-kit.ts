import { createAlertsDataSource } from '@paper/alerts-data';
import { DEFAULT_WALLET_RULES, mergeWalletRules, type WalletRulesPatch } from '@paper/contracts';
import { createMigratedDatabase, type TestDatabase } from '@paper/dev-stack';
import { QueueRegistry } from '@paper/nest-infra';
import { queryRows } from '@paper/sql-rows';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AlertWriter } from '../alerts/alert-writer.service';
import { type AlertsPollerConfig, alertsPollerConfigSchema } from '../config/alerts-poller.config';
import { ProtocolPollService } from '../polling/protocol-poll.service';
import { ExchangeStream } from '../polling/exchange-stream';
import { WalletObserver } from '../polling/wallet-observer';
import { WalletPollService } from '../polling/wallet-poll.service';
import { WatchStore } from '../polling/watch-store';
import { ToolApiClient } from '../tool-api/tool-api.client';
import { startToolApiStub, type ToolApiStub } from './tool-api-stub';

/** The poller's services wired by hand against a fresh database, a unique Redis prefix and a tool API stub. */
export class PollerTestKit {
  readonly queues: QueueRegistry;
  readonly writer: AlertWriter;

  private constructor(
    readonly database: TestDatabase,
    readonly db: DataSource,
    readonly config: AlertsPollerConfig,
  ) {
    this.queues = new QueueRegistry(config);
    this.writer = new AlertWriter(db, this.queues);
  }

  static async start(env: Record<string, string>): Promise<PollerTestKit> {
    const { database, db } = await createMigratedDatabase('paper_poller', ['alerts'], (url) =>
      createAlertsDataSource({ url, poolSize: 5, applicationName: 'poller-int-test' }),
    );
    const config = alertsPollerConfigSchema.parse({
      DATABASE_URL: database.url,
      REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
      ALERTS_TOOL_CALLS_PER_SECOND: '1000',
      ...env,
    });
    return new PollerTestKit(database, db, config);
  }

  /** A fresh poller process: new client, observer and services over the same database (a restart). */
  poller(): { wallets: WalletPollService; protocol: ProtocolPollService; tools: ToolApiClient } {
    const tools = new ToolApiClient(this.config);
    const store = new WatchStore(this.db);
    return {
      tools,
      wallets: new WalletPollService(
        store,
        new WalletObserver(tools, new ExchangeStream(this.queues, this.config), this.config),
        this.writer,
        this.config,
      ),
      protocol: new ProtocolPollService(this.db, store, tools, this.writer, this.config),
    };
  }

  async stop(): Promise<void> {
    await this.queues.onApplicationShutdown();
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

  async channel(accountId: string, status = 'active'): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO alerts.channels (id, account_id, kind, target, secret, status)
         VALUES ($1, $2, 'webhook', 'https://example.com/hook', 'whsec_x', $3)`,
      [id, accountId, status],
    );
    return id;
  }

  async watch(
    accountId: string,
    address: string,
    rules: WalletRulesPatch = {},
    createdAt = new Date(),
  ): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO alerts.watches (id, account_id, address, rules, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5)`,
      [id, accountId, address, JSON.stringify(mergeWalletRules(DEFAULT_WALLET_RULES, rules)), createdAt],
    );
    return id;
  }

  query<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return queryRows<T>(this.db, text, params);
  }
}

/** A tool API stand-in and a test kit, started before a suite's tests and stopped after them. */
export function withPollerKit(env: Record<string, string> = {}): {
  readonly kit: PollerTestKit;
  readonly api: ToolApiStub;
} {
  const started: { kit?: PollerTestKit; api?: ToolApiStub } = {};
  beforeAll(async () => {
    started.api = await startToolApiStub();
    started.kit = await PollerTestKit.start({ EXCHANGE_API_URL: started.api.url, ...env });
  });
  afterAll(async () => {
    await started.kit?.stop();
    await started.api?.close();
  });
  return {
    get kit() {
      return started.kit!;
    },
    get api() {
      return started.api!;
    },
  };
}
