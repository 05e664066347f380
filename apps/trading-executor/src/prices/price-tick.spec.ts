import { toPriceTick } from './price-tick';

describe('price ticks', () => {
  it('scales BTC to one decimal and ETH to two, mid = floor((bid + ask) / 2)', () => {
    expect(toPriceTick('BTC', { bid: '100000.5', ask: '100001.8', time: 1 })).toEqual({
      market: 'BTC',
      bid: '1000005',
      ask: '1000018',
      mid: '1000011',
      ts: 1,
    });
    expect(toPriceTick('ETH', { bid: '3500.123', ask: '3500.2', time: 2 })).toEqual({
      market: 'ETH',
      bid: '350012',
      ask: '350020',
      mid: '350016',
      ts: 2,
    });
  });

  it('refuses a crossed or empty quote', () => {
    expect(() => toPriceTick('BTC', { bid: '101', ask: '100', time: 1 })).toThrow(/Crossed/);
    expect(() => toPriceTick('BTC', { bid: '0', ask: '100', time: 1 })).toThrow(/Crossed/);
  });
});
