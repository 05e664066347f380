import { Logger } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { outageDelay, runThroughOutages } from './outage-retry';

const logger = new Logger('test');
jest.spyOn(logger, 'warn').mockImplementation(() => undefined);

function fakeJob(): Job & { moveToDelayed: jest.Mock } {
  return { id: '1', name: 'work', token: 'tok', moveToDelayed: jest.fn(async () => undefined) } as unknown as Job & {
    moveToDelayed: jest.Mock;
  };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('runThroughOutages', () => {
  it('runs the handler again after an outage, without failing the job', async () => {
    let calls = 0;
    const result = await runThroughOutages(
      'q',
      fakeJob(),
      async () => {
        calls += 1;
        if (calls < 3) throw refused();
        return 'done';
      },
      new AbortController().signal,
      logger,
    );
    expect({ result, calls }).toEqual({ result: 'done', calls: 3 });
  });

  it('rethrows other errors at once (they fail the attempt as before)', async () => {
    const bug = new TypeError('x is not a function');
    await expect(
      runThroughOutages('q', fakeJob(), async () => Promise.reject(bug), new AbortController().signal, logger),
    ).rejects.toBe(bug);
  });

  it('hands a job waiting out an outage back to the queue when the worker shuts down', async () => {
    const job = fakeJob();
    const stopping = new AbortController();
    const running = runThroughOutages('q', job, async () => Promise.reject(refused()), stopping.signal, logger);
    stopping.abort();
    await expect(running).rejects.toBeInstanceOf(DelayedError);
    expect(job.moveToDelayed).toHaveBeenCalledWith(expect.any(Number), 'tok');
  });

  it('backs off from 250 ms up to 5 s', () => {
    expect(outageDelay(0)).toBeLessThanOrEqual(313);
    expect(outageDelay(0)).toBeGreaterThanOrEqual(187);
    expect(outageDelay(20)).toBeLessThanOrEqual(6250);
    expect(outageDelay(20)).toBeGreaterThanOrEqual(3750);
  });
});
