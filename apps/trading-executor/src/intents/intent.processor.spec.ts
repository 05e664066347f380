import { INTENTS_DUE_JOB_ID, INTENTS_QUEUE } from '@paper/contracts';
import type { QueueRegistry } from '@paper/nest-infra';
import type { TradingExecutorConfig } from '../config/trading-executor.config';
import type { IntentEngine } from './intent-engine.service';
import { IntentProcessor } from './intent.processor';

describe('IntentProcessor', () => {
  function wire(wakeUp: QueueRegistry['wakeUp']) {
    let backlog: () => void = () => undefined;
    const engine = {
      pump: jest.fn(),
      onBacklog: (listener: () => void) => (backlog = listener),
    } as unknown as IntentEngine;
    const registry = { worker: () => ({ on: () => undefined }), wakeUp } as unknown as QueueRegistry;
    const config = { INTENT_LOCK_MS: 5000 } as TradingExecutorConfig;
    new IntentProcessor(registry, engine, config).onApplicationBootstrap();
    return { backlog: () => backlog() };
  }

  it('wakes the other replicas when the engine finds a backlog: one intents-due add at a time', async () => {
    let finish!: () => void;
    const wakeUp = jest.fn(() => new Promise<null>((resolve) => (finish = () => resolve(null))));
    const processor = wire(wakeUp as unknown as QueueRegistry['wakeUp']);
    processor.backlog();
    processor.backlog();
    expect(wakeUp).toHaveBeenCalledTimes(1);
    expect(wakeUp).toHaveBeenCalledWith(
      INTENTS_QUEUE,
      'intents-due',
      {},
      { jobId: INTENTS_DUE_JOB_ID },
      expect.any(Number),
    );
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    processor.backlog();
    expect(wakeUp).toHaveBeenCalledTimes(2);
  });

  it('goes on when Redis does not take the wake-up (the batches run without it)', async () => {
    const wakeUp = jest.fn(() => Promise.reject(new Error('Connection is closed.')));
    const processor = wire(wakeUp as unknown as QueueRegistry['wakeUp']);
    processor.backlog();
    await new Promise((resolve) => setImmediate(resolve));
    processor.backlog();
    expect(wakeUp).toHaveBeenCalledTimes(2);
  });
});
