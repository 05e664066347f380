import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyScopes } from './idempotency-scopes';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * Idempotency-Key on every write of the alerts API; global because the account guard (a replay of the
 * account's deletion) and the rate limits (a replayed account creation) consult its scopes.
 */
@Global()
@Module({
  providers: [IdempotencyScopes, { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }],
  exports: [IdempotencyScopes],
})
export class IdempotencyModule {}
