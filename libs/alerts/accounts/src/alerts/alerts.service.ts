import { Inject, Injectable } from '@nestjs/common';
import {
  AlertEntity,
  deliveriesOfAlerts,
  type HeldBackCount,
  heldBackWhilePaused,
  lastAlertAtByWatch,
} from '@paper/alerts-data';
import { AlertsErrorCode } from '@paper/contracts';
import { DataSource } from 'typeorm';
import { AlertsException } from '../errors/alerts.exception';
import { ALERTS_PAGE_DEFAULT, type AlertsPageView, type AlertView, type DeliveryStatusView } from './alert.dto';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Alert history of one account, newest first, with each channel's delivery status. */
@Injectable()
export class AlertsService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async page(accountId: string, limit = ALERTS_PAGE_DEFAULT, before?: string): Promise<AlertsPageView> {
    const query = this.dataSource
      .getRepository(AlertEntity)
      .createQueryBuilder('a')
      .where('a.account_id = :accountId', { accountId })
      .orderBy('a.created_at', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .take(limit + 1);
    if (before) {
      const cursor = await this.dataSource.getRepository(AlertEntity).findOneBy({ id: before, accountId });
      if (!cursor)
        throw new AlertsException(
          AlertsErrorCode.ValidationFailed,
          'before must be the id of one of your alerts (nextBefore of the previous page).',
        );
      // Compared in SQL: timestamps keep their microseconds there.
      query.andWhere('(a.created_at, a.id) < (SELECT c.created_at, c.id FROM alerts.alerts c WHERE c.id = :before)', {
        before: cursor.id,
      });
    }
    const rows = await query.getMany();
    const alerts = rows.slice(0, limit);
    const deliveries = await this.deliveries(alerts.map((a) => a.id));
    return {
      alerts: alerts.map((a) => this.view(a, deliveries.get(a.id) ?? [])),
      nextBefore: rows.length > limit ? alerts[alerts.length - 1]!.id : null,
    };
  }

  /** Time of the newest alert of each watch of the account. */
  /** Alerts of each kind not sent to a channel because it was paused, since `since`. */
  heldBackWhilePaused(channelId: string, since: Date): Promise<HeldBackCount[]> {
    return heldBackWhilePaused(this.dataSource, channelId, since);
  }

  lastByWatch(accountId: string): Promise<Map<string, Date>> {
    return lastAlertAtByWatch(this.dataSource, accountId);
  }

  private async deliveries(alertIds: string[]): Promise<Map<string, DeliveryStatusView[]>> {
    const byAlert = new Map<string, DeliveryStatusView[]>();
    if (alertIds.length === 0) return byAlert;
    for (const r of await deliveriesOfAlerts(this.dataSource, alertIds)) {
      const list = byAlert.get(r.alert_id) ?? [];
      list.push({
        id: r.id,
        channelId: r.channel_id,
        channelKind: r.kind,
        channelLabel: r.label,
        status: r.status,
        attempts: r.attempts,
        lastError: r.last_error,
        nextAttemptAt: iso(r.next_attempt_at),
        deliveredAt: iso(r.delivered_at),
      });
      byAlert.set(r.alert_id, list);
    }
    return byAlert;
  }

  private view(alert: AlertEntity, deliveries: DeliveryStatusView[]): AlertView {
    return {
      id: alert.id,
      eventId: alert.eventId,
      kind: alert.kind,
      wallet: alert.wallet,
      watchId: alert.watchId,
      details: alert.details,
      occurredAt: alert.occurredAt.toISOString(),
      createdAt: alert.createdAt.toISOString(),
      deliveries,
    };
  }
}
