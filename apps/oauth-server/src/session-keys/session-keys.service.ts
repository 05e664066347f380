import { Inject, Injectable, Logger } from '@nestjs/common';
import { type GuardrailsPayload, SESSION_KEYS_QUEUE, type SessionKeyResult } from '@paper/contracts';
import { APP_CONFIG, QueueRegistry } from '@paper/nest-infra';
import { activeSessionKeyOfGrant, SessionKeySecretEntity } from '@paper/oauth-data';
import { DataSource } from 'typeorm';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { SessionKeyQueueEvents } from './session-key-queue-events';

export interface NewSessionKey {
  wallet: string;
  address: string;
  encryptedPrivateKey: string;
  guardrails: GuardrailsPayload;
  expiresAt: Date;
  approvalSignature: string;
  clientId: string;
  grantId: string;
  label: string | null;
}

export class SessionKeyRegistrationError extends Error {}

/**
 * Session keys of connections: registered with the exchange through trading-executor (the only writer of
 * exchange state, which verifies the owner's approval), and their encrypted private parts kept here.
 * Revocation is SessionKeyRevocations'.
 */
@Injectable()
export class SessionKeysService {
  private readonly logger = new Logger('SessionKeys');

  constructor(
    @Inject(APP_CONFIG) private readonly config: OauthServerConfig,
    private readonly dataSource: DataSource,
    private readonly queues: QueueRegistry,
    private readonly queueEvents: SessionKeyQueueEvents,
  ) {}

  /** The newest usable session key of a grant (lower-case address). */
  async activeAddressForGrant(grantId: string): Promise<string | undefined> {
    return activeSessionKeyOfGrant(this.dataSource, grantId);
  }

  /** Asks the exchange to register the key and waits until it has (or fails), then stores the secret. */
  async register(key: NewSessionKey): Promise<void> {
    const events = this.queueEvents.get();
    await events.waitUntilReady();
    const job = await this.queues.add(
      SESSION_KEYS_QUEUE,
      'register-session-key',
      {
        wallet: key.wallet,
        sessionKey: key.address,
        guardrails: key.guardrails,
        expiresAt: String(Math.floor(key.expiresAt.getTime() / 1000)),
        approvalSignature: key.approvalSignature,
        label: key.label,
      },
      { jobId: `sk-${key.address}` },
    );
    let result: SessionKeyResult | undefined;
    try {
      result = (await job.waitUntilFinished(events, this.config.SESSION_KEY_REGISTRATION_TIMEOUT_MS)) as
        SessionKeyResult | undefined;
    } catch (error) {
      const message = (error as Error).message;
      this.logger.warn(`session key ${key.address} not registered: ${message}`);
      throw new SessionKeyRegistrationError(/timed out/i.test(message) ? 'timeout' : message);
    }
    if (result?.status !== 'registered') {
      this.logger.warn(`session key ${key.address} refused: ${result?.reason ?? 'no result'}`);
      throw new SessionKeyRegistrationError(result?.message ?? 'the exchange gave no answer');
    }
    await this.dataSource.getRepository(SessionKeySecretEntity).insert({
      address: key.address,
      wallet: key.wallet,
      encryptedPrivateKey: key.encryptedPrivateKey,
      clientId: key.clientId,
      grantId: key.grantId,
      guardrails: key.guardrails,
      label: key.label,
      expiresAt: key.expiresAt,
      revokedAt: null,
    });
  }
}
