import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { OWNER_ACTIONS_QUEUE, type SignedOwnerActionPayload } from '@paper/contracts';
import { QueueRegistry } from '@paper/nest-infra';
import { OwnerActionService } from './owner-action.service';

/** BullMQ worker of the owner-actions queue: validates the payload (QueueRegistry) and hands it to the service. */
@Injectable()
export class OwnerActionProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly registry: QueueRegistry,
    private readonly actions: OwnerActionService,
  ) {}

  onApplicationBootstrap(): void {
    this.registry.worker(OWNER_ACTIONS_QUEUE, (_name, data, job) => this.actions.execute(data as SignedOwnerActionPayload, job.timestamp), { concurrency: 4 });
  }
}
