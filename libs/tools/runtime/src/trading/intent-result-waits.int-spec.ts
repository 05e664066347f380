import { randomBytes } from 'node:crypto';
import { type IntentResult, intentResultsChannel } from '@paper/contracts';
import { freePort, testRedisUrl } from '@paper/dev-stack';
import { Redis } from 'ioredis';
import { IntentResultWaits } from './intent-result-waits';

const id = () => `0x${randomBytes(32).toString('hex')}`;
const executedAt = new Date().toISOString();
const resultOf = (intentId: string): IntentResult => ({
  intentId,
  kind: 'open',
  wallet: `0x${'1'.repeat(40)}`,
  status: 'executed',
  reason: null,
  message: 'Opened.',
  executedAt,
});

describe('intent result waits', () => {
  const prefix = `t${randomBytes(4).toString('hex')}`;
  let publisher: Redis;
  /** What the inbox holds as final, and the ids it was asked for. */
  const inbox = new Map<string, IntentResult>();
  const asked: string[][] = [];
  const readFinal = async (ids: readonly string[]) => {
    asked.push([...ids]);
    return new Map(ids.filter((i) => inbox.has(i)).map((i) => [i, inbox.get(i)!]));
  };
  let waits: IntentResultWaits;

  beforeAll(async () => {
    publisher = new Redis(testRedisUrl());
    waits = new IntentResultWaits({ REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix }, readFinal);
    await waits.listen(5000);
  });

  afterAll(async () => {
    await waits.close();
    await publisher.quit();
  });

  beforeEach(() => {
    inbox.clear();
    asked.length = 0;
  });

  it("resolves as soon as the executors' messages carry every result, whatever else they carry", async () => {
    const [a, b] = [id(), id()];
    const wait = waits.expect([a, b.toUpperCase().replace('0X', '0x')]);
    const started = Date.now();
    await publisher.publish(
      intentResultsChannel(prefix),
      JSON.stringify([resultOf(a), resultOf(id()), { not: 'a result' }]),
    );
    await publisher.publish(intentResultsChannel(prefix), 'not json');
    await publisher.publish(intentResultsChannel(prefix), JSON.stringify([resultOf(b)]));
    const results = await wait.results(Date.now() + 10_000);
    expect([...results.keys()].sort()).toEqual([a, b].sort());
    expect(results.get(a)).toEqual(resultOf(a));
    expect(Date.now() - started).toBeLessThan(900);
    expect(asked).toEqual([]);
  });

  it('reads the inbox for a result whose message never came, and reports the rest as not found by the deadline', async () => {
    const [lost, pending] = [id(), id()];
    inbox.set(lost, resultOf(lost));
    const wait = waits.expect([lost, pending]);
    // Checked once a wait is a second old, at most two seconds after it began.
    const results = await wait.results(Date.now() + 2500);
    expect([...results.keys()]).toEqual([lost]);
    expect(asked.flat()).toEqual(expect.arrayContaining([lost, pending]));
  });

  it('stops at once when cancelled, with what it found so far', async () => {
    const [a, b] = [id(), id()];
    const wait = waits.expect([a, b]);
    const arrived = waits.expect([a]);
    await publisher.publish(intentResultsChannel(prefix), JSON.stringify([resultOf(a)]));
    expect((await arrived.results(Date.now() + 5000)).has(a)).toBe(true);
    const started = Date.now();
    wait.cancel();
    const results = await wait.results(Date.now() + 10_000);
    expect(Date.now() - started).toBeLessThan(100);
    expect([...results.keys()]).toEqual([a]);
  });

  it('answers from the inbox within half a second while Redis cannot be reached', async () => {
    const down = new IntentResultWaits(
      { REDIS_URL: `redis://127.0.0.1:${await freePort()}`, REDIS_PREFIX: prefix },
      readFinal,
    );
    try {
      const started = Date.now();
      await Promise.all([down.listen(300), down.listen(300)]);
      expect(Date.now() - started).toBeLessThan(1000);
      const again = Date.now();
      await down.listen(300);
      expect(Date.now() - again).toBeLessThan(50);
      const ran = id();
      inbox.set(ran, resultOf(ran));
      const results = await down.expect([ran]).results(Date.now() + 5000);
      expect(results.get(ran)).toEqual(resultOf(ran));
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await down.close();
    }
  });
});
