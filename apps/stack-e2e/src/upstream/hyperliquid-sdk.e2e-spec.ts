import { startTestStack, type TestStack } from '@paper/dev-stack';
import type { InfoClient } from '@nktkas/hyperliquid';
import { sdkShapeErrors } from './sdk-shape-check';

const HOUR = 3_600_000;
const USER = `0x${'1'.repeat(40)}` as const;

describe('venue-sim driven by a Hyperliquid SDK (@nktkas/hyperliquid InfoClient)', () => {
  let stack: TestStack;
  let info: InfoClient;
  let simUrl: string;

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['venue-sim'] });
    simUrl = stack.appUrls['venue-sim']!;
    const hl = await import('@nktkas/hyperliquid');
    info = new hl.InfoClient({ transport: new hl.HttpTransport({ apiUrl: simUrl, timeout: 10_000 }) });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers every market-data request type in exactly the shapes the SDK declares', async () => {
    const now = Date.now();
    const answers = [
      { method: 'allMids', value: await info.allMids() },
      { method: 'meta', value: await info.meta() },
      { method: 'metaAndAssetCtxs', value: await info.metaAndAssetCtxs() },
      { method: 'allPerpMetas', value: await info.allPerpMetas() },
      { method: 'perpDexs', value: await info.perpDexs() },
      { method: 'l2Book', value: await info.l2Book({ coin: 'BTC' }) },
      { method: 'l2Book', value: await info.l2Book({ coin: 'ETH', nSigFigs: 5, mantissa: 2 }) },
      { method: 'l2Book', value: await info.l2Book({ coin: 'BTC', nSigFigs: 3 }) },
      {
        method: 'candleSnapshot',
        value: await info.candleSnapshot({ coin: 'ETH', interval: '1h', startTime: now - 6 * HOUR }),
      },
      { method: 'marginTable', value: await info.marginTable({ id: 56 }) },
      { method: 'maxMarketOrderNtls', value: await info.maxMarketOrderNtls() },
      { method: 'perpsAtOpenInterestCap', value: await info.perpsAtOpenInterestCap() },
      { method: 'predictedFundings', value: await info.predictedFundings() },
      { method: 'fundingHistory', value: await info.fundingHistory({ coin: 'BTC', startTime: now - 5 * HOUR }) },
      { method: 'recentTrades', value: await info.recentTrades({ coin: 'BTC' }) },
      { method: 'exchangeStatus', value: await info.exchangeStatus() },
      { method: 'perpDeployAuctionStatus', value: await info.perpDeployAuctionStatus() },
      { method: 'spotMeta', value: await info.spotMeta() },
      { method: 'spotMetaAndAssetCtxs', value: await info.spotMetaAndAssetCtxs() },
    ];
    expect(sdkShapeErrors(answers)).toEqual([]);
  });

  it('publishes meta with margin tables and the collateral token, the same in metaAndAssetCtxs', async () => {
    const meta = await info.meta();
    expect(meta.universe.map((a) => a.name)).toEqual(['BTC', 'ETH']);
    expect(meta.collateralToken).toBe(0);
    for (const asset of meta.universe) {
      const table = await info.marginTable({ id: asset.marginTableId });
      expect(table.marginTiers[0]).toEqual({ lowerBound: '0.0', maxLeverage: asset.maxLeverage });
      expect(meta.marginTables).toContainEqual([asset.marginTableId, table]);
    }
    const [again, ctxs] = await info.metaAndAssetCtxs();
    expect(again).toEqual(meta);
    expect(ctxs).toHaveLength(2);
    const mids = await info.allMids();
    expect(Object.keys(mids).sort()).toEqual(['BTC', 'ETH']);
  });

  it('aggregates the book to nSigFigs significant figures (and mantissa), bids below asks', async () => {
    const full = (await info.l2Book({ coin: 'BTC' }))!;
    const coarse = (await info.l2Book({ coin: 'BTC', nSigFigs: 5, mantissa: 5 }))!;
    const step = 10 ** (Math.floor(Math.log10(Number(full.levels[1][0]!.px))) + 1 - 5) * 5;
    for (const level of [...coarse.levels[0], ...coarse.levels[1]]) expect(Number(level.px) % step).toBe(0);
    expect(Number(coarse.levels[0][0]!.px)).toBeLessThanOrEqual(Number(full.levels[0][0]!.px));
    expect(Number(coarse.levels[1][0]!.px)).toBeGreaterThanOrEqual(Number(full.levels[1][0]!.px));
    expect(coarse.levels[0]).toHaveLength(20);
    await expect(info.l2Book({ coin: 'DOGE' })).resolves.toBeNull();
  });

  it('refuses user, account and exchange requests with a clear 400 instead of inventing state', async () => {
    for (const call of [
      () => info.clearinghouseState({ user: USER }),
      () => info.openOrders({ user: USER }),
      () => info.userFills({ user: USER }),
    ]) {
      await expect(call()).rejects.toThrow(/^400 Bad Request - .*not_simulated.*market data only/);
    }
    const exchange = await fetch(`${simUrl}/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: { type: 'order' } }),
    });
    expect(exchange.status).toBe(400);
    expect(await exchange.json()).toEqual({ code: 'not_simulated', message: expect.stringContaining('POST /info') });
  });
});
