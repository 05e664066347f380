export * from './types';
export {
  type Rational,
  rational,
  gcd,
  mulTrunc,
  toFixedString,
  toDecimalString,
  toNumber as rationalToNumber,
  compare as compareRational,
} from './rational';
export * from './decimal';
export * from './market-config';
export * from './notional';
export * from './mid-price';
export * from './bust-price';
export * from './liquidation';
export * from './deadband';
export * from './win-curve';
export * from './settlement';
export * from './reward-mint';
export * from './payout-queue';
export * from './lp';
export * from './guardrails';
export * from './opening-checks';
export * from './position-calc';
export * from './ledger';
export * from './pool-state';
export * from './open-accounting';
export * from './close-accounting';
export * from './pro-rata';
export * from './harvest-accounting';
export * from './deposit-rules';
export * from './owner-actions';
