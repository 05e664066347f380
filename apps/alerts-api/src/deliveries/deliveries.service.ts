import { Inject, Injectable, Logger } from '@nestjs/common';
import { deadDeliveriesOf, DeliveryEntity, deliveryWithAlert, type DeliveryWithAlertRow } from '@paper/alerts-data';
import { AlertsErrorCode } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import { AlertsException, DEAD_PAGE_DEFAULT, type DeliveryView } from '@paper/alerts-accounts';
import { wakeDispatchers } from './dispatcher-wake-up';

function view(r: DeliveryWithAlertRow): DeliveryView {
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
    return (await deadDeliveriesOf(this.dataSource, accountId, limit)).map(view);
  }

  /**
   * Moves a dead delivery back to `queued` (attempts and rate-limited answers start over, the event id stays) and wakes
   * the dispatchers. The dispatcher signs each attempt afresh.
   */
  async retry(accountId: string, id: string): Promise<DeliveryView> {
    await this.dataSource.transaction(async (manager) => {
      const delivery = await manager
        .getRepository(DeliveryEntity)
        .findOne({ where: { id, accountId }, lock: { mode: 'pessimistic_write' } });
      if (!delivery) throw AlertsException.notFound('delivery');
      if (delivery.status !== 'dead') {
        throw new AlertsException(
          AlertsErrorCode.Conflict,
          `Only dead-lettered deliveries can be re-queued; this one is ${delivery.status}.`,
        );
      }
      await manager
        .getRepository(DeliveryEntity)
        .update({ id }, { status: 'queued', attempts: 0, rateLimited: 0, nextAttemptAt: new Date() });
    });
    await wakeDispatchers(this.queues, this.logger);
    return view((await deliveryWithAlert(this.dataSource, id))!);
  }
}
