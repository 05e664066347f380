import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** Stored rows to read back: an account, its channels, watches, alerts and deliveries (ids returned). */
export class AlertsSeed {
  constructor(private readonly db: DataSource) {}

  async account(): Promise<string> {
    const id = randomUUID();
    await this.db.query(`INSERT INTO alerts.accounts (id, token_hash) VALUES ($1, $2)`, [
      id,
      randomBytes(32).toString('hex'),
    ]);
    return id;
  }

  async channel(accountId: string, kind: 'webhook' | 'discord' | 'telegram', label: string | null): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO alerts.channels (id, account_id, kind, target, label, status) VALUES ($1, $2, $3, $4, $5, 'active')`,
      [id, accountId, kind, `target-${id}`, label],
    );
    return id;
  }

  async watch(accountId: string, address: string): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO alerts.watches (id, account_id, address, rules) VALUES ($1, $2, $3, '{}'::jsonb)`,
      [id, accountId, address],
    );
    return id;
  }

  async alert(
    accountId: string,
    watchId: string | null,
    createdAt: Date,
    kind = 'position_opened',
  ): Promise<{ id: string; eventId: string }> {
    const id = randomUUID();
    const eventId = `evt_${randomBytes(8).toString('hex')}`;
    await this.db.query(
      `INSERT INTO alerts.alerts (id, account_id, watch_id, event_id, kind, wallet, details, occurred_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, '{}'::jsonb, $7, $7)`,
      [id, accountId, watchId, eventId, kind, watchId ? `0x${'a'.repeat(40)}` : null, createdAt],
    );
    return { id, eventId };
  }

  async delivery(
    accountId: string,
    alert: { id: string; eventId: string },
    channelId: string,
    status: string,
    at: Date,
    lastError: string | null = null,
  ): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO alerts.deliveries (id, account_id, alert_id, channel_id, event_id, status, attempts, last_error, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 3, $7, $8, $8)`,
      [id, accountId, alert.id, channelId, alert.eventId, status, lastError, at],
    );
    return id;
  }
}
