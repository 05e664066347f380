import {
  AccountsService,
  AlertsService,
  ChannelsService,
  ProtocolRulesService,
  TelegramChatsService,
  WatchesService,
} from '@paper/alerts-accounts';
import { createAlertsDataSource } from '@paper/alerts-data';
import { clearRedisPrefix, createMigratedDatabase, type TestDatabase } from '@paper/dev-stack';
import { Redis } from 'ioredis';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type AlertsApiConfig, alertsApiConfigSchema } from '../config/alerts-api.config';
import { TelegramLinkService } from '../telegram/telegram-link.service';
import { BotIdentity } from '../telegram-bot/bot-identity.service';
import { TelegramBotClient } from '../telegram-bot/telegram-bot.client';
import { TelegramBot } from '../telegram-bot/telegram-bot.service';
import { TelegramUpdates } from '../telegram-bot/telegram-updates.service';
import { UpstreamClient } from '../upstream/upstream-client.service';

/** The bot's services wired by hand against a fresh database and a unique Redis prefix (integration tests). */
export class BotTestKit {
  readonly updates: TelegramUpdates;
  readonly links: TelegramLinkService;
  readonly identity: BotIdentity;
  readonly bot: TelegramBot;
  readonly client: TelegramBotClient;

  private constructor(
    readonly database: TestDatabase,
    readonly db: DataSource,
    readonly redis: Redis,
    readonly config: AlertsApiConfig,
  ) {
    const client = (this.client = new TelegramBotClient(redis, config));
    const watches = new WatchesService(db, config);
    const channels = new ChannelsService(db, config);
    const chats = new TelegramChatsService(db);
    const accounts = new AccountsService(db, config, watches, channels, new ProtocolRulesService(db));
    this.identity = new BotIdentity(client, config);
    this.links = new TelegramLinkService(db, config, chats);
    this.bot = new TelegramBot(
      client,
      this.identity,
      accounts,
      watches,
      channels,
      new AlertsService(db),
      chats,
      new UpstreamClient(config),
      config,
    );
    this.updates = this.updatesWith(this.links);
  }

  /** Update handling with another link service (crash tests). */
  updatesWith(links: TelegramLinkService): TelegramUpdates {
    return new TelegramUpdates(links, this.bot, this.identity, this.client, this.redis, this.config);
  }

  static async start(env: Record<string, string>): Promise<BotTestKit> {
    const { database, db } = await createMigratedDatabase('paper_bot', ['alerts'], (url) =>
      createAlertsDataSource({ url, poolSize: 5, applicationName: 'bot-int-test' }),
    );
    const config = alertsApiConfigSchema.parse({
      DATABASE_URL: database.url,
      REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
      ...env,
    });
    return new BotTestKit(database, db, new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 }), config);
  }

  async stop(): Promise<void> {
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

  async channel(accountId: string, kind: 'webhook' | 'discord' | 'telegram', target: string): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO alerts.channels (id, account_id, kind, target, status) VALUES ($1, $2, $3, $4, 'active')`,
      [id, accountId, kind, target],
    );
    return id;
  }

  /** An alert with one queued delivery to `channelId`. */
  async delivery(accountId: string, channelId: string, kind = 'position_opened'): Promise<void> {
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
        JSON.stringify({ positionId: '7', market: 'BTC', side: 'long', leverage: 100, marginUsd: 100 }),
      ],
    );
    await this.db.query(
      `INSERT INTO alerts.deliveries (id, account_id, alert_id, channel_id, event_id, status, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, 'queued', now())`,
      [randomUUID(), accountId, alertId, channelId, eventId],
    );
  }
}
