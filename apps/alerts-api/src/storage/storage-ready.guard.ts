import { applyDecorators, type CanActivate, Injectable, UseGuards } from '@nestjs/common';
import { ApiErrors } from '../errors/error-body.dto';
import { StorageReadiness } from './storage-readiness.service';

/** Refuses requests that need storage with 503 `service_initializing` until the schema is applied. */
@Injectable()
export class StorageReadyGuard implements CanActivate {
  constructor(private readonly readiness: StorageReadiness) {}

  async canActivate(): Promise<boolean> {
    await this.readiness.assertReady();
    return true;
  }
}

/** Marks an endpoint that needs storage (and documents its 503). */
export function NeedsStorage(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(StorageReadyGuard), ApiErrors(503));
}
