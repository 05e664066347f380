import type { ExchangeEvent } from '@paper/contracts';
import { tradeOfEvent } from './tool-data';

const W = '0x52908400098527886e0f7030069857d2e4169ee7';
const position = {
  positionId: '7',
  market: 'BTC',
  side: 'long',
  leverage: 100,
  marginUsd: 10,
  notionalUsd: 1000,
  entryPrice: 100_000,
  bustPrice: 99_000,
};
const event = (type: ExchangeEvent['type'], data: Record<string, unknown>): ExchangeEvent => ({
  id: '1',
  type,
  time: '2026-11-27T10:00:00.000Z',
  wallet: W,
  market: 'BTC',
  data,
});
const settled = {
  ...position,
  exitPrice: 101_000,
  pnlUsd: 9.5,
  feeUsd: 0.5,
  paidUsd: 19.5,
  queuedUsd: 0,
  rewardMinted: 0,
  intentId: 'i2',
};

describe('tradeOfEvent', () => {
  it('reports an open at its entry price, without PnL', () => {
    expect(tradeOfEvent(event('position.opened', { ...position, intentId: 'i1' }))).toEqual({
      type: 'open',
      positionId: '7',
      trader: W,
      market: 'BTC',
      side: 'long',
      leverage: 100,
      marginUsd: 10,
      notionalUsd: 1000,
      price: 100_000,
      pnlUsd: null,
      time: '2026-11-27T10:00:00.000Z',
    });
  });

  it('reports a close or a liquidation at its exit price, with its PnL', () => {
    expect(tradeOfEvent(event('position.closed', settled))).toMatchObject({
      type: 'close',
      price: 101_000,
      pnlUsd: 9.5,
    });
    expect(tradeOfEvent(event('position.liquidated', settled))).toMatchObject({ type: 'liquidation', price: 101_000 });
  });

  it('ignores events that are not trades, market events, and data that does not parse by its schema', () => {
    expect(tradeOfEvent(event('deposit.credited', { amountUsd: 1, feeUsd: 0, txHash: null }))).toBeNull();
    expect(tradeOfEvent({ ...event('position.opened', { ...position, intentId: 'i1' }), wallet: null })).toBeNull();
    expect(tradeOfEvent(event('position.closed', { ...settled, exitPrice: 'high' }))).toBeNull();
    expect(tradeOfEvent(event('position.opened', { positionId: '7' }))).toBeNull();
  });
});
