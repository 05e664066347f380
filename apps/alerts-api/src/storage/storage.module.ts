import { Global, Module } from '@nestjs/common';
import { HealthzController } from './healthz.controller';
import { StorageReadiness } from './storage-readiness.service';
import { StorageReadyGuard } from './storage-ready.guard';

/**
 * Whether the alerts schema is applied (503 service_initializing until it is); global because every route checks it.
 */
@Global()
@Module({
  controllers: [HealthzController],
  providers: [StorageReadiness, StorageReadyGuard],
  exports: [StorageReadiness, StorageReadyGuard],
})
export class StorageModule {}
