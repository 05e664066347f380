import { Inject, Injectable, Logger } from '@nestjs/common';
import { SESSION_KEYS_QUEUE, type SessionKeyResult } from '@paper/contracts';
import { APP_CONFIG, QueueRegistry, waitForJob } from '@paper/nest-infra';
import {
  confirmRevocation,
  type PendingRevocation,
  type RevokedKeys,
  revokeSessionKeys,
  unconfirmedRevocations,
} from '@paper/oauth-data';
import { DataSource } from 'typeorm';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { SessionKeyQueueEvents } from './session-key-queue-events';

/** How long adding a wake-up job may take before the record is left to the sweeper. */
const WAKE_UP_TIMEOUT_MS = 1000;

/** The exchange's job of a key's revocation (the same id on every attempt). */
export const revokeJobId = (sessionKey: string) => `sk-revoke-${sessionKey}`;

/** Whether the exchange's answer means it has the key revoked (or never had it). */
export function exchangeConfirms(result: unknown): boolean {
  const status = (result as SessionKeyResult | undefined)?.status;
  return status === 'revoked' || status === 'not_found';
}

/** How a revocation the owner asked for ended: confirmed by the exchange, still completing, or nothing to revoke. */
export type RevocationOutcome = 'revoked' | 'pending' | 'not-found';

type RevocationConfig = Pick<OauthServerConfig, 'SESSION_KEY_REVOCATION_WAIT_MS'>;

/**
 * Revocation of session keys. PostgreSQL is the record: the key is marked revoked and its pending revocation
 * written in one statement; the `revoke-session-key` job only wakes trading-executor, and the sweeper
 * (RevocationSweeper) re-sends it until the exchange confirms. The owner's request waits (bounded) for that
 * confirmation; the other paths (`/revoke`, a reused refresh token) only record and wake.
 */
@Injectable()
export class SessionKeyRevocations {
  private readonly logger = new Logger('SessionKeyRevocations');

  constructor(
    @Inject(APP_CONFIG) private readonly config: RevocationConfig,
    private readonly dataSource: DataSource,
    private readonly queues: QueueRegistry,
    private readonly queueEvents: SessionKeyQueueEvents,
  ) {}

  /** Revokes every key of a grant (recorded, the exchange woken); returns the keys revoked now. */
  async revokeForGrant(grantId: string): Promise<string[]> {
    const revoked = await this.record({ grantId });
    for (const p of revoked) {
      if (!(await this.wake(p))) this.logger.warn(`revocation of ${p.sessionKey} recorded; the sweeper will send it`);
    }
    return revoked.map((r) => r.sessionKey);
  }

  /**
   * Revokes a key of the wallet and waits until the exchange has it revoked (at most
   * SESSION_KEY_REVOCATION_WAIT_MS). Asking again while the revocation is completing waits for it again.
   */
  async revokeKeyAndConfirm(wallet: string, address: string): Promise<RevocationOutcome> {
    const deadline = Date.now() + this.config.SESSION_KEY_REVOCATION_WAIT_MS;
    const revoked = await this.record({ wallet, address });
    return this.confirmAll(revoked.length > 0 ? revoked : await this.unconfirmed({ wallet, address }), deadline);
  }

  /**
   * Waits (at most SESSION_KEY_REVOCATION_WAIT_MS) until the exchange confirms the wallet's revocations of a grant or
   * key.
   */
  async confirm(which: RevokedKeys & { wallet: string }): Promise<RevocationOutcome> {
    const deadline = Date.now() + this.config.SESSION_KEY_REVOCATION_WAIT_MS;
    return this.confirmAll(await this.unconfirmed(which), deadline);
  }

  private unconfirmed(which: RevokedKeys & { wallet: string }): Promise<PendingRevocation[]> {
    return unconfirmedRevocations(this.dataSource, which);
  }

  private async confirmAll(waiting: PendingRevocation[], deadline: number): Promise<RevocationOutcome> {
    if (waiting.length === 0) return 'not-found';
    const confirmed = await Promise.all(waiting.map((p) => this.confirmation(p, deadline)));
    return confirmed.every(Boolean) ? 'revoked' : 'pending';
  }

  /** Adds the exchange's wake-up job of a pending revocation; null when the queue did not take it in time. */
  wake(p: PendingRevocation) {
    return this.queues.wakeUp(
      SESSION_KEYS_QUEUE,
      'revoke-session-key',
      { wallet: p.wallet, sessionKey: p.sessionKey },
      { jobId: revokeJobId(p.sessionKey) },
      WAKE_UP_TIMEOUT_MS,
    );
  }

  private async record(which: RevokedKeys): Promise<PendingRevocation[]> {
    return revokeSessionKeys(this.dataSource, which, this.config.SESSION_KEY_REVOCATION_WAIT_MS);
  }

  /**
   * Wakes the exchange (adding the job again returns the one already queued) and waits for its answer until
   * the deadline; true once it confirmed, which completes the record.
   */
  private async confirmation(p: PendingRevocation, deadline: number): Promise<boolean> {
    const job = await this.wake(p);
    if (!job) {
      this.logger.warn(`revocation of ${p.sessionKey} recorded; the queue is unavailable, the sweeper will send it`);
      return false;
    }
    const wait = await waitForJob(job, this.queueEvents.get(), deadline - Date.now());
    if (wait.state !== 'completed' || !exchangeConfirms(wait.value)) return false;
    await confirmRevocation(this.dataSource, p.sessionKey);
    return true;
  }
}
