import { parsePriceTick, parsePriceTickMessage } from './price-feed';

describe('price ticks', () => {
  it('parses a tick as the Redis hash stores it (every field a string)', () => {
    expect(parsePriceTick({ market: 'BTC', bid: '1', ask: '3', mid: '2', ts: '5' })).toEqual({
      market: 'BTC',
      bid: '1',
      ask: '3',
      mid: '2',
      ts: 5,
    });
  });

  it('parses a message of the tick channel (ts a number)', () => {
    expect(parsePriceTickMessage(JSON.stringify({ market: 'ETH', bid: '10', ask: '12', mid: '11', ts: 7 }))).toEqual({
      market: 'ETH',
      bid: '10',
      ask: '12',
      mid: '11',
      ts: 7,
    });
  });

  it.each([
    ['an unknown market', { market: 'SOL', bid: '1', ask: '3', mid: '2', ts: '5' }],
    ['a decimal price', { market: 'BTC', bid: '1.5', ask: '3', mid: '2', ts: '5' }],
    ['a missing mid', { market: 'BTC', bid: '1', ask: '3', ts: '5' }],
    ['a time that is not a number', { market: 'BTC', bid: '1', ask: '3', mid: '2', ts: 'soon' }],
    ['an empty hash (no price yet)', {}],
    ['nothing', null],
  ])('rejects %s', (_case, value) => {
    expect(parsePriceTick(value)).toBeNull();
  });

  it('rejects a channel message that is not JSON', () => {
    expect(parsePriceTickMessage('{not json')).toBeNull();
  });
});
