import { Inject, Injectable, Logger } from '@nestjs/common';
import { DeliveryEntity } from '@paper/alerts-data';
import { ALERTS_DELIVERY_QUEUE, AlertsErrorCode, DELIVERIES_DUE_JOB_ID } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import { AlertsException, DEAD_PAGE_DEFAULT, type DeliveryView } from '@paper/alerts-accounts';

interface DeadRow {
  id: string;
  alert_id: string;
  event_id: string;
  channel_id: string;
  channel_kind: string;
  channel_label: string | null;
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  updated_at: Date;
  alert_kind: string;
  wallet: string | null;
  occurred_at: Date;
}

const SELECT = `
  SELECT d.id, d.alert_id, d.event_id, d.channel_id, c.kind AS channel_kind, c.label AS channel_label, d.status, d.attempts,
         d.last_error, d.next_attempt_at, d.delivered_at, d.updated_at, a.kind AS alert_kind, a.wallet, a.occurred_at
    FROM alerts.deliveries d
    JOIN alerts.channels c ON c.id = d.channel_id
    JOIN alerts.alerts a ON a.id = d.alert_id`;

function view(r: DeadRow): DeliveryView {
  return {
    id: r.id,
    alertId: r.alert_id,
    eventId: r.event_id,
    channelId: r.channel_id,
    channelKind: r.channel_kind,
    channelLabel: r.channel_label,
    status: r.status,
    attempts: r.attempts,
    lastError: r.last_error,
    nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
    deliveredAt: r.delivered_at?.toISOString() ?? null,
    updatedAt: r.updated_at.toISOString(),
    alert: { kind: r.alert_kind, wallet: r.wallet, occurredAt: r.occurred_at.toISOString() },
  };
}

/** Dead letters of one account and their re-queueing. */
@Injectable()
export class DeliveriesService {
  private readonly logger = new Logger('Deliveries');

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly queues: QueueRegistry,
  ) {}

  async dead(accountId: string, limit = DEAD_PAGE_DEFAULT): Promise<DeliveryView[]> {
    const rows = (await this.dataSource.query(`${SELECT} WHERE d.account_id = $1 AND d.status = 'dead' ORDER BY d.updated_at DESC, d.id DESC LIMIT $2`, [accountId, limit])) as DeadRow[];
    return rows.map(view);
  }

  /**
   * Moves a dead delivery back to `queued` (attempts and rate-limited answers start over, the event id stays) and wakes
   * the dispatchers. The dispatcher signs each attempt afresh.
   */
  async retry(accountId: string, id: string): Promise<DeliveryView> {
    await this.dataSource.transaction(async (manager) => {
      const delivery = await manager.getRepository(DeliveryEntity).findOne({ where: { id, accountId }, lock: { mode: 'pessimistic_write' } });
      if (!delivery) throw AlertsException.notFound('delivery');
      if (delivery.status !== 'dead') {
        throw new AlertsException(AlertsErrorCode.Conflict, `Only dead-lettered deliveries can be re-queued; this one is ${delivery.status}.`);
      }
      await manager.getRepository(DeliveryEntity).update({ id }, { status: 'queued', attempts: 0, rateLimited: 0, nextAttemptAt: new Date() });
    });
    // The row is the truth: the dispatchers read due deliveries themselves, the wake-up only makes it sooner.
    await this.queues
      .add(ALERTS_DELIVERY_QUEUE, 'deliveries-due', {}, { jobId: DELIVERIES_DUE_JOB_ID })
      .catch((error: Error) => this.logger.warn(`waking the dispatchers failed (they find the delivery by themselves): ${error.message}`));
    const rows = (await this.dataSource.query(`${SELECT} WHERE d.id = $1`, [id])) as DeadRow[];
    return view(rows[0]!);
  }
}
