// The generic delivery engine (signer, SSRF guard, sender, retry schedule, rate-limit buckets) is the
// shared @paper/webhook-delivery library; this library adds the alerts' own destinations on top of it.
export * from '@paper/webhook-delivery';
export * from './discord-webhook-url';
export * from './discord-sender';
export * from './telegram-sender';
export * from './alerts-limits';
export * from './destination-buckets';
