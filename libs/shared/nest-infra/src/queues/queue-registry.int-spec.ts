import { defineQueue } from '@paper/contracts';
import { Queue, QueueEvents } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { bullConnection } from '../redis/redis';
import { QueueRegistry } from './queue-registry';

const contract = defineQueue(
  'registry-test',
  { work: z.object({ ms: z.number().int() }).strict() },
  { work: { attempts: 2, removeOnComplete: 5 } },
);

describe('QueueRegistry against real Redis', () => {
  const settings = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: `t${randomBytes(4).toString('hex')}` };
  let registry: QueueRegistry;
  let events: QueueEvents;

  beforeEach(async () => {
    registry = new QueueRegistry(settings);
    events = new QueueEvents(contract.queue, bullConnection(settings));
    await events.waitUntilReady();
  });

  afterEach(async () => {
    await registry.onApplicationShutdown();
    await events.close();
  });

  it('adds jobs with the options of their contract and the id the producer gives', async () => {
    const job = await registry.add(contract, 'work', { ms: 1 }, { jobId: 'w-1' });
    expect(job.id).toBe('w-1');
    expect(job.opts).toMatchObject({ attempts: 2, removeOnComplete: 5 });
    const [bulk] = await registry.addBulk(contract, 'work', [{ data: { ms: 2 } }]);
    expect(bulk!.opts).toMatchObject({ attempts: 2, removeOnComplete: 5 });
  });

  it('refuses to enqueue a payload that breaks the contract', async () => {
    // @ts-expect-error the contract types the payload: a string is no number
    await expect(registry.add(contract, 'work', { ms: 'soon' })).rejects.toThrow(/ms/);
  });

  it('fails a bad payload without retrying it', async () => {
    registry.worker(contract, { work: async () => 'never' });
    // A producer that bypasses the registry (an older release, a script) adds a payload the contract refuses.
    const rogue = new Queue(contract.queue, bullConnection(settings));
    const job = await rogue.add('work', { ms: 'bad' }, { attempts: 5 });
    await expect(job.waitUntilFinished(events, 10000)).rejects.toThrow(/Invalid payload/);
    await rogue.close();
    const failed = await registry.queue(contract).getJob(job.id!);
    expect(failed?.attemptsMade).toBe(1);
  });

  it('drains the active job before shutdown completes', async () => {
    let finished = false;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    registry.worker(contract, {
      work: async (data) => {
        started();
        await new Promise((r) => setTimeout(r, data.ms));
        finished = true;
        return 'done';
      },
    });
    await registry.add(contract, 'work', { ms: 300 });
    await running;
    await registry.onApplicationShutdown();
    expect(finished).toBe(true);
  });
});
