import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { SESSION_KEYS_QUEUE } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { SessionKeyService } from './session-key.service';

/** BullMQ worker of the session-key queue (registrations and revocations from the consent flow). */
@Injectable()
export class SessionKeyProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly registry: QueueRegistry,
    private readonly sessionKeys: SessionKeyService,
  ) {}

  onApplicationBootstrap(): void {
    this.registry.worker(
      SESSION_KEYS_QUEUE,
      {
        'register-session-key': (data) => this.sessionKeys.register(data),
        'revoke-session-key': (data) => this.sessionKeys.revoke(data),
      },
      { concurrency: 4 },
    );
  }
}
