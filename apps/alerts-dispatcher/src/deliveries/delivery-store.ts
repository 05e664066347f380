import { Inject, Injectable } from '@nestjs/common';
import {
  claimDueDeliveries,
  deadLetterDelivery,
  type ChannelFailure,
  type DeliveryJob,
  markDelivered,
  type DisabledChannelRow,
  postponeDelivery,
  recordChannelFailure,
  recordRateLimited,
  renewDeliveryClaims,
  retryDeliveryLater,
} from '@paper/alerts-data';
import { DataSource } from 'typeorm';
import { CoalescedCalls } from './coalesced-calls';

/**
 * Delivery rows: claim the due ones in batches, record each attempt's outcome. Every write checks the
 * status it expects. Successful outcomes of deliveries in flight together are one statement
 * (CoalescedCalls): a dispatcher at its concurrency makes a few statements per batch, not per delivery.
 */
@Injectable()
export class DeliveryStore {
  private readonly deliveries = new CoalescedCalls<string, true>((ids) => this.deliveredMany(ids));

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Claims up to `limit` deliveries that are due, and those left `sending` by a dispatcher that stopped
   * renewing them for `leaseMs`; each is taken by one dispatcher only (see claimDueDeliveries).
   */
  claimDue(limit: number, leaseMs: number): Promise<DeliveryJob[]> {
    return claimDueDeliveries(this.dataSource, limit, leaseMs);
  }

  /** Keeps the deliveries this dispatcher is sending claimed (their lease runs from the last renewal). */
  async renew(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await renewDeliveryClaims(this.dataSource, ids);
  }

  /**
   * A claimed delivery that may not be sent yet (its destination's rate limit): the attempt is given back and it is due
   * again at `at`.
   */
  postpone(id: string, at: Date): Promise<void> {
    return postponeDelivery(this.dataSource, id, at);
  }

  async delivered(id: string): Promise<void> {
    await this.deliveries.call(id);
  }

  private async deliveredMany(ids: string[]): Promise<Map<string, true>> {
    await markDelivered(this.dataSource, ids);
    return new Map(ids.map((id) => [id, true as const]));
  }

  retryLater(id: string, reason: string, at: Date): Promise<void> {
    return retryDeliveryLater(this.dataSource, id, reason, at);
  }

  /**
   * The receiver answered 429: the attempt that was just claimed is given back (it did not fail) and
   * the rate-limited count goes up; the next attempt is at `at`.
   */
  rateLimited(id: string, reason: string, at: Date): Promise<void> {
    return recordRateLimited(this.dataSource, id, reason, at);
  }

  /**
   * Dead letter (re-queued only by its owner through POST /api/deliveries/{id}/retry); `unsent` gives the claimed
   * attempt back (nothing was sent).
   */
  dead(id: string, reason: string, unsent = false): Promise<void> {
    return deadLetterDelivery(this.dataSource, id, reason, unsent);
  }

  /**
   * Counts a failed attempt against its channel; when its receiver is gone, or the failure is sustained,
   * the channel is disabled and the account's other active channels get a `channel_disabled` alert saying
   * why, in one transaction. Returns the channel when this call disabled it.
   */
  channelFailed(channelId: string, failure: ChannelFailure): Promise<DisabledChannelRow | undefined> {
    return this.dataSource.transaction((m) => recordChannelFailure(m, channelId, failure));
  }
}
