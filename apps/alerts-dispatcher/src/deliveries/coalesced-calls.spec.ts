import { CoalescedCalls } from './coalesced-calls';

describe('CoalescedCalls', () => {
  it('serves calls made in the same turn of the event loop with one batch, each caller its own answer', async () => {
    const batches: string[][] = [];
    const calls = new CoalescedCalls<string, number>(async (keys) => {
      batches.push(keys);
      return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.length]));
    });
    const answers = await Promise.all([calls.call('a'), calls.call('bb'), calls.call('a'), calls.call('missing')]);
    expect(answers).toEqual([1, 2, 1, undefined]);
    expect(batches).toEqual([['a', 'bb', 'missing']]);
    expect(await calls.call('ccc')).toBe(3);
    expect(batches).toHaveLength(2);
  });

  it('gathers the calls made while a batch runs into the next batch', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = new CoalescedCalls<number, number>(async (keys) => {
      batches.push(keys);
      if (batches.length === 1) await gate;
      return new Map(keys.map((k) => [k, k]));
    });
    const first = calls.call(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4].map((k) => calls.call(k));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('starts a batch as soon as it is full, and fails every caller of a failed batch', async () => {
    const sizes: number[] = [];
    const calls = new CoalescedCalls<number, number>(async (keys) => {
      sizes.push(keys.length);
      if (keys.includes(13)) throw new Error('unlucky');
      return new Map(keys.map((k) => [k, k * 2]));
    }, 4);
    const results = await Promise.allSettled(Array.from({ length: 14 }, (_, i) => calls.call(i)));
    expect(sizes).toEqual([4, 4, 4, 2]);
    expect(results.slice(0, 12).map((r) => (r.status === 'fulfilled' ? r.value : 'x'))).toEqual(
      Array.from({ length: 12 }, (_, i) => i * 2),
    );
    expect(results.slice(12).map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
