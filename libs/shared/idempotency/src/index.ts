export * from './idempotency';
export * from './pg-idempotency-store';
