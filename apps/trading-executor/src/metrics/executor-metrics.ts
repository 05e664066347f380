import { metricsRegistry } from '@paper/nest-infra';
import { Counter, Gauge, Histogram } from 'prom-client';

/** Prometheus metrics of trading-executor (served on /metrics with the app's default metrics). */
export const priceIngestFailures = new Counter({
  name: 'exchange_price_ingest_failures_total',
  help: 'Upstream price polls that failed, by market and error kind',
  labelNames: ['market', 'kind'],
  registers: [metricsRegistry],
});

export const priceAge = new Gauge({
  name: 'exchange_price_age_seconds',
  help: 'Age of the latest ingested price by market',
  labelNames: ['market'],
  registers: [metricsRegistry],
});

export const intentsExecuted = new Counter({
  name: 'exchange_intents_total',
  help: 'Intents settled by kind and final status',
  labelNames: ['kind', 'status'],
  registers: [metricsRegistry],
});

export const intentDuration = new Histogram({
  name: 'exchange_intent_duration_seconds',
  help: 'Time from accepting an intent to storing its final status',
  labelNames: ['kind'],
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

export const ownerActionsExecuted = new Counter({
  name: 'exchange_owner_actions_total',
  help: 'Owner actions (withdraw, stake, unstake, claim_rewards) by kind and status',
  labelNames: ['kind', 'status'],
  registers: [metricsRegistry],
});

export const liquidationsTotal = new Counter({
  name: 'exchange_liquidations_total',
  help: 'Positions liquidated by market',
  labelNames: ['market'],
  registers: [metricsRegistry],
});

export const liquidationPassDuration = new Histogram({
  name: 'exchange_liquidation_pass_seconds',
  help: 'Time of one liquidation pass (one price tick of one market)',
  labelNames: ['market'],
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const maintenanceRuns = new Counter({
  name: 'exchange_maintenance_runs_total',
  help: 'Maintenance jobs run by name and outcome',
  labelNames: ['job', 'outcome'],
  registers: [metricsRegistry],
});

export const intentBatchSize = new Histogram({
  name: 'exchange_intent_batch_size',
  help: 'Intents claimed by one batch transaction',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
  registers: [metricsRegistry],
});

export const intentBatchDuration = new Histogram({
  name: 'exchange_intent_batch_seconds',
  help: 'Time of one intent batch (claim, execute, store the results, commit)',
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

export const intentsQueued = new Gauge({
  name: 'exchange_intents_queued',
  help: 'Accepted intents and owner actions not executed yet (sampled by the sweeper)',
  labelNames: ['table'],
  registers: [metricsRegistry],
});

export const oldestQueuedIntent = new Gauge({
  name: 'exchange_intent_oldest_queued_seconds',
  help: 'Age of the oldest accepted intent or owner action not executed yet (sampled by the sweeper)',
  labelNames: ['table'],
  registers: [metricsRegistry],
});
