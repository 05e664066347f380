import { QUOTE_VALIDITY_TEXT } from '@paper/contracts';

/** What the server tells the client (and its model) at initialize: how to use the tools well. */
export const MCP_SERVER_INSTRUCTIONS = [
  'Paper Perps is a paper-trading exchange for BTC and ETH perpetual futures (up to 1000x), priced at the upstream ' +
    'venue mid. Amounts are in USDC.',
  '',
  'Reading: the market, analytics and calculator tools (get_markets, get_price_chart, get_protocol_stats, ' +
    'get_liquidation_map, get_leaderboard, get_top_trades, get_recent_trades, calculate_position, ' +
    'get_intent_status) are read-only and need no sign-in; call them freely. Public results are cached for 5 ' +
    'seconds, so poll no faster than once per second. get_account, get_trade_history, get_portfolio_history and ' +
    'get_deposit_info inspect any wallet given as `wallet`; without `wallet` they show the connected wallet, which ' +
    "needs this client to be connected to the user's wallet (OAuth; the server answers 401 and the client starts " +
    'the sign-in).',
  '',
  'Money: `marginUsd` is the collateral of a position and the most it can lose; notional = marginUsd x leverage. A ' +
    'position is liquidated when the mark reaches its bust price, losing the margin. Wins pass through a deadband ' +
    'and a win curve and pay a 2% win fee; calculate_position shows the exact settlement for any entry and exit ' +
    'without a wallet.',
  '',
  'Trading (needs the trade:write scope and a trading session the wallet owner approved with guardrails):',
  '1. get_trading_permissions: check that trading is possible and read the guardrails (maximum margin per trade, ' +
    'leverage, daily notional, open positions, markets). If it cannot trade, relay the `reason` to the user.',
  `2. preview_trade with market, side, marginUsd and leverage. It checks the exchange limits, the balance and the guardrails, and returns the estimated entry, bust price, PnL scenarios and a quoteId valid for ${QUOTE_VALIDITY_TEXT}.`,
  '3. Show the preview to the user (market, side, margin, leverage, notional, entry, bust price, worst case = the ' +
    'margin) and get an explicit confirmation. Never open a position the user did not confirm. Clients that draw ' +
    'interactive views show preview_trade as a trade ticket whose Confirm button opens the position itself: then ' +
    'do not call open_position for that quote; the view reports the outcome.',
  `4. open_position with exactly the same market, side, marginUsd and leverage plus the quoteId, within ${QUOTE_VALIDITY_TEXT} of the preview. A quote is used once; if it expired, preview again and ask again.`,
  '5. close_positions closes whole positions (by positionIds, or all=true, optionally for one market) and also needs ' +
    "the user's explicit confirmation first.",
  'A trading call that cannot confirm the outcome in time reports the intent as pending with its intentId: check it ' +
    'with get_intent_status (no faster than once per second) instead of retrying, or cancel a still-queued intent ' +
    'with cancel_intent.',
  '',
  'Errors: a failed call returns isError with "<code>: <message>"; the message says how to fix the call (for example ' +
    'invalid_arguments names the bad parameter and the accepted values, guardrail_exceeded names the limit). Relay ' +
    'refusals to the user rather than working around a guardrail.',
].join('\n');
