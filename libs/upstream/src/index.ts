export * from './candle-intervals';
export * from './info-types';
export * from './request-weight';
export * from './weight-bucket';
export * from './upstream-error';
export { backoffDelay, parseRetryAfter } from './retry-policy';
export * from './hyperliquid-info.client';
export * from './upstream-config';
