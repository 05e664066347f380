import { parseInfoRequest } from './info-request.dto';
import { InfoError } from './info.exception';

describe('parseInfoRequest', () => {
  it('accepts the market-data request types and ignores extra fields', () => {
    expect(parseInfoRequest({ type: 'allMids', dex: '' })).toEqual({ type: 'allMids', dex: '' });
    expect(parseInfoRequest({ type: 'l2Book', coin: 'BTC', nSigFigs: null, extra: 1 })).toEqual({
      type: 'l2Book',
      coin: 'BTC',
      nSigFigs: null,
    });
    expect(parseInfoRequest({ type: 'l2Book', coin: 'BTC', nSigFigs: 5, mantissa: 2 })).toEqual({
      type: 'l2Book',
      coin: 'BTC',
      nSigFigs: 5,
      mantissa: 2,
    });
    expect(parseInfoRequest({ type: 'meta' })).toEqual({ type: 'meta' });
    expect(parseInfoRequest({ type: 'marginTable', id: 56 })).toEqual({ type: 'marginTable', id: 56 });
    expect(parseInfoRequest({ type: 'fundingHistory', coin: 'ETH', startTime: 0 })).toEqual({
      type: 'fundingHistory',
      coin: 'ETH',
      startTime: 0,
    });
    expect(parseInfoRequest({ type: 'candleSnapshot', req: { coin: 'ETH', interval: '1M', startTime: 0 } })).toEqual({
      type: 'candleSnapshot',
      req: { coin: 'ETH', interval: '1M', startTime: 0 },
    });
    expect(parseInfoRequest({ type: 'metaAndAssetCtxs' })).toEqual({ type: 'metaAndAssetCtxs' });
  });

  it.each([
    [undefined],
    [[]],
    [{ type: 'userState' }],
    [{ type: 'l2Book' }],
    [{ type: 'candleSnapshot', req: { coin: 'BTC', interval: '2m', startTime: 0 } }],
    [{ type: 'candleSnapshot', req: { coin: 'BTC', interval: '1m', startTime: '0' } }],
    [{ type: 'l2Book', coin: 'BTC', nSigFigs: 4, mantissa: 2 }],
    [{ type: 'l2Book', coin: 'BTC', nSigFigs: 6 }],
    [{ type: 'meta', dex: 'xyz' }],
  ])('refuses %j with a 400', (body) => {
    let error: unknown;
    try {
      parseInfoRequest(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InfoError);
    expect((error as InfoError).status).toBe(400);
    expect((error as InfoError).message).toMatch(/^Failed to deserialize the JSON body/);
  });

  it('refuses user and account requests clearly as not simulated', () => {
    for (const type of ['clearinghouseState', 'openOrders', 'userFills', 'spotClearinghouseState', 'vaultDetails']) {
      expect(() => parseInfoRequest({ type, user: `0x${'1'.repeat(40)}` })).toThrow(
        expect.objectContaining({ status: 400, code: 'not_simulated' }),
      );
    }
  });
});
