import { parseInfoRequest } from './info-request.dto';
import { InfoError } from './info.exception';

describe('parseInfoRequest', () => {
  it('accepts the four request types and ignores extra fields', () => {
    expect(parseInfoRequest({ type: 'allMids', dex: '' })).toEqual({ type: 'allMids' });
    expect(parseInfoRequest({ type: 'l2Book', coin: 'BTC', nSigFigs: null })).toEqual({ type: 'l2Book', coin: 'BTC' });
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
});
