import { Global, Module } from '@nestjs/common';
import { QueueRegistry } from './queue-registry';

/** BullMQ queues and workers for apps that produce or consume jobs. Needs REDIS_* in the app config. */
@Global()
@Module({ providers: [QueueRegistry], exports: [QueueRegistry] })
export class QueueModule {}
