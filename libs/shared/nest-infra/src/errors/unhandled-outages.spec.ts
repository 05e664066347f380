import { unhandledRejectionHandler } from './unhandled-outages';

describe('unhandled rejections', () => {
  it('logs a dependency outage nobody awaited (once per 5 s) and rethrows anything else', () => {
    const warnings: string[] = [];
    const handle = unhandledRejectionHandler({ warn: (message: string) => void warnings.push(message) } as never);
    const flushed = Object.assign(
      new Error(
        'Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.',
      ),
      { name: 'MaxRetriesPerRequestError' },
    );
    expect(() => handle(flushed)).not.toThrow();
    expect(() =>
      handle(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' })),
    ).not.toThrow();
    expect(warnings).toEqual([expect.stringContaining('Reached the max retries per request limit')]);
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(() => handle(bug)).toThrow(bug);
  });
});
