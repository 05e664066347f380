export * from './idempotency';
export * from './pg-idempotency-store';
export * from './sealed-idempotency-store';
