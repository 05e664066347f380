import { metricsRegistry } from '@paper/nest-infra';
import { startToolApiStub, type ToolApiStub } from '../testing/tool-api-stub';
import { account, eventsPage, position, trade, tradeLogEvent } from '../testing/tool-fixtures';
import { ToolApiClient, ToolApiError } from './tool-api.client';

/** The client against a real HTTP server standing in for the tool API. */
describe('ToolApiClient (against a tool API stand-in)', () => {
  let api: ToolApiStub;
  let client: ToolApiClient;

  beforeAll(async () => {
    api = await startToolApiStub();
    client = new ToolApiClient({
      EXCHANGE_API_URL: api.url,
      ALERTS_TOOL_TIMEOUT_MS: 5000,
      ALERTS_TOOL_CALLS_PER_SECOND: 1000,
    });
  });

  afterAll(() => api.close());

  beforeEach(() => {
    for (const tool of Object.keys(api.data)) delete api.data[tool];
    api.calls.length = 0;
  });

  const counted = async (tool: string, outcome: string): Promise<number> => {
    const metric = await metricsRegistry.getSingleMetric('alerts_poller_tool_calls_total')!.get();
    return metric.values.find((v) => v.labels['tool'] === tool && v.labels['outcome'] === outcome)?.value ?? 0;
  };
  const failure = (promise: Promise<unknown>): Promise<ToolApiError> =>
    promise.then(
      () => {
        throw new Error('expected the call to fail');
      },
      (error: unknown) => error as ToolApiError,
    );

  it('returns the parsed data of a valid answer, tolerating fields the catalog does not name', async () => {
    const ok = await counted('get_account', 'ok');
    const data = account({ positions: [position('7')] });
    api.data['get_account'] = { ...data, newTotalUsd: 5, positions: [{ ...position('7'), fundingUsd: 1 }] };
    await expect(client.account(data.wallet)).resolves.toEqual({ ...data, newTotalUsd: 5 });
    expect(api.calls).toEqual([{ tool: 'get_account', query: `wallet=${data.wallet}` }]);
    expect(await counted('get_account', 'ok')).toBe(ok + 1);
  });

  it('refuses data that does not match the catalog, naming the tool and the first bad path', async () => {
    const invalid = await counted('get_account', 'invalid');
    const ok = await counted('get_account', 'ok');
    api.data['get_account'] = account({ positions: [{ ...position('7'), bustPrice: 'far' as unknown as number }] });
    const error = await failure(client.account(account().wallet));
    expect(error).toBeInstanceOf(ToolApiError);
    expect(error.tool).toBe('get_account');
    expect(error.message).toMatch(/^get_account: data does not match the catalog at positions\.0\.bustPrice: .*number/);
    const { lifetime: _dropped, ...withoutLifetime } = account();
    api.data['get_account'] = withoutLifetime;
    expect((await failure(client.account(account().wallet))).message).toMatch(/at lifetime: /);
    expect(await counted('get_account', 'invalid')).toBe(invalid + 2);
    expect(await counted('get_account', 'ok')).toBe(ok);
  });

  it('refuses a successful answer that is not a tool result, and counts refusals as errors', async () => {
    const invalid = await counted('get_markets', 'invalid');
    const errors = await counted('get_markets', 'error');
    api.data['get_markets'] = [1, 2];
    expect((await failure(client.markets())).message).toMatch(/^get_markets: answer is not a tool result at data: /);
    api.data['get_markets'] = new Error('venue down');
    const refused = await failure(client.markets());
    expect(refused).toMatchObject({ tool: 'get_markets', status: 502 });
    expect(refused.message).toContain('upstream_unavailable: venue down');
    expect(await counted('get_markets', 'invalid')).toBe(invalid + 1);
    expect(await counted('get_markets', 'error')).toBe(errors + 1);
  });

  it('reads a page of the event log with its arguments in the query', async () => {
    const page = eventsPage([tradeLogEvent('41', trade('open', '7')), tradeLogEvent('42', trade('close', '7'))]);
    api.data['get_events'] = page;
    await expect(client.events('40', 500)).resolves.toEqual(page);
    expect(api.calls).toEqual([{ tool: 'get_events', query: 'after=40&limit=500' }]);
  });
});
