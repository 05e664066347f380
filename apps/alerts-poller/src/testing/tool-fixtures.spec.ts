import {
  GET_ACCOUNT,
  GET_EVENTS,
  GET_LEADERBOARD,
  GET_MARKETS,
  GET_PROTOCOL_STATS,
  GET_RECENT_TRADES,
  type ToolDefinition,
} from '@paper/contracts';
import { tradeOfEvent } from '../tool-api/tool-data';
import {
  account,
  eventsPage,
  markets,
  position,
  protocolStats,
  recentTrades,
  sessionKey,
  trade,
  trader,
  traderPage,
  tradeLogEvent,
} from './tool-fixtures';

/** The fixtures cannot drift from the catalog: each parses, unchanged, with its tool's output schema. */
describe('tool fixtures', () => {
  const cases: [string, ToolDefinition, unknown][] = [
    ['get_markets', GET_MARKETS, markets()],
    ['get_markets, overridden', GET_MARKETS, markets({ ETH: { open: false, status: 'close-only' } }, false)],
    ['get_account', GET_ACCOUNT, account()],
    [
      'get_account with positions and session keys',
      GET_ACCOUNT,
      account({
        positions: [position('1'), position('2', { market: 'ETH', side: 'short' })],
        sessionKeys: [sessionKey()],
      }),
    ],
    ['get_recent_trades', GET_RECENT_TRADES, recentTrades([trade('open', '1'), trade('liquidation', '2')])],
    ['get_recent_trades of a wallet', GET_RECENT_TRADES, recentTrades([], { wallet: account().wallet })],
    ['get_leaderboard', GET_LEADERBOARD, traderPage(1, [trader('0x01'), trader('0x02')], 40)],
    ['get_protocol_stats', GET_PROTOCOL_STATS, protocolStats({ paperSupply: 10 })],
    [
      'get_events',
      GET_EVENTS,
      eventsPage([tradeLogEvent('1', trade('open', '1')), tradeLogEvent('2', trade('liquidation', '1'))]),
    ],
  ];

  it.each(cases)('%s parses with its output schema', (_name, tool, data) => {
    expect(tool.outputSchema.parse(data)).toEqual(data);
  });

  it('records trades in the event log as the poller reads them back', () => {
    for (const t of [trade('open', '1'), trade('close', '1'), trade('liquidation', '2', { side: 'short' })])
      expect(tradeOfEvent(tradeLogEvent('9', t))).toEqual(t);
  });
});
