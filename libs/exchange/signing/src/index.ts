export * from './typed-data';
export * from './intent-signing';
export * from './guardrails-approval';
export * from './deposit-proxy';
export * from './owner-action-signing';
export * from './digest-signature.verifier';
