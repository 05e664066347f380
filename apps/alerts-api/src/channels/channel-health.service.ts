import { Inject, Injectable, Logger } from '@nestjs/common';
import { channelHealth, recoverChannelDeliveries } from '@paper/alerts-data';
import {
  AlertsException,
  type ChannelDetailView,
  ChannelsService,
  RECOVER_LIMIT,
  type RecoverResultView,
  toChannelView,
} from '@paper/alerts-accounts';
import { AlertsErrorCode } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import { wakeDispatchers } from '../deliveries/dispatcher-wake-up';

/** An endpoint's health (`GET /api/channels/{id}`) and the recovery of what failed (`recover`). */
@Injectable()
export class ChannelHealthService {
  private readonly logger = new Logger('ChannelHealth');

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly channels: ChannelsService,
    private readonly queues: QueueRegistry,
  ) {}

  async detail(accountId: string, id: string): Promise<ChannelDetailView> {
    const channel = await this.channels.get(accountId, id);
    const h = await channelHealth(this.dataSource, channel.id);
    return {
      ...toChannelView(channel),
      health: {
        delivered: h.delivered,
        failed: h.failed,
        pending: h.pending,
        dead: h.dead,
        lastError:
          h.last_error && h.last_error_at ? { message: h.last_error, at: h.last_error_at.toISOString() } : null,
        latency: h.p50_ms === null || h.p99_ms === null ? null : { p50Ms: h.p50_ms, p99Ms: h.p99_ms },
      },
    };
  }

  /**
   * Re-queues the channel's failed and dead deliveries since `since` (at most RECOVER_LIMIT) and wakes the dispatchers.
   */
  async recover(accountId: string, id: string, since: string): Promise<RecoverResultView> {
    const at = new Date(since);
    if (Number.isNaN(at.getTime()) || at.getTime() > Date.now())
      throw new AlertsException(AlertsErrorCode.ValidationFailed, 'since must be a past ISO 8601 date-time.');
    const channel = await this.channels.get(accountId, id);
    const requeued = await recoverChannelDeliveries(this.dataSource, channel.id, at, RECOVER_LIMIT);
    if (requeued > 0) await wakeDispatchers(this.queues, this.logger);
    return { requeued, more: requeued === RECOVER_LIMIT };
  }
}
