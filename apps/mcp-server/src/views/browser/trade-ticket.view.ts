/// <reference lib="dom" />
import type { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  ToolRefusal,
  callTool,
  dataOf,
  fact,
  failureText,
  h,
  percent,
  price,
  show,
  signedUsd,
  tellModel,
  tone,
  usd,
  type View,
} from './view-kit';

interface Quote {
  quoteId: string;
  expiresAt: string;
  market: string;
  side: 'long' | 'short';
  marginUsd: number;
  leverage: number;
  notionalUsd: number;
  estimatedEntryPrice: number;
  bid: number;
  ask: number;
  bustPrice: number;
  liquidationDistancePercent: number;
  scenarios: { label: string; exitPrice: number; liquidated: boolean; pnlUsd: number }[];
  availableBalanceUsd: number;
  guardrails: {
    maxMarginPerTradeUsd: number | null;
    maxLeverage: number | null;
    maxDailyNotionalUsd: number | null;
    maxOpenPositions: number | null;
    allowedMarkets: string[] | null;
    requireConfirmation: boolean;
  };
}

interface Fill {
  status: 'filled' | 'pending';
  intentId: string;
  position: {
    positionId: string;
    entryPrice: number;
    bustPrice: number;
    liquidationDistancePercent: number;
    notionalUsd: number;
  } | null;
}

type State =
  | { kind: 'ready' }
  | { kind: 'busy'; what: string }
  | { kind: 'filled'; fill: Fill }
  | { kind: 'cancelled' }
  | { kind: 'expired'; reason: string }
  | { kind: 'failed'; message: string };

/** Refusals of open_position that a new quote resolves. */
const STALE_QUOTE = new Set(['quote_expired', 'quote_used', 'quote_not_found', 'quote_mismatch']);

/**
 * preview_trade: the ticket of the previewed trade with a countdown to the quote's expiry. Confirm
 * calls open_position through the host with the same arguments and the quoteId (the click is the
 * person's explicit confirmation) and shows the fill; Cancel ends it; an expired quote offers a new
 * preview instead of the Confirm button.
 */
export function tradeTicketView(app: App, root: HTMLElement): View {
  let quote: Quote | undefined;
  let state: State = { kind: 'ready' };
  let timer: ReturnType<typeof setInterval> | undefined;

  const secondsLeft = () => (quote ? Math.max(0, Math.ceil((Date.parse(quote.expiresAt) - Date.now()) / 1000)) : 0);
  const tradeArgs = (q: Quote) => ({ market: q.market, side: q.side, marginUsd: q.marginUsd, leverage: q.leverage });
  const describe = (q: Quote) => `${q.side} ${q.market} ${q.leverage}x with ${usd(q.marginUsd)} margin`;

  const tick = () => {
    if (state.kind === 'ready' && secondsLeft() === 0) state = { kind: 'expired', reason: 'This quote expired.' };
    draw();
  };

  const start = (next: Quote) => {
    quote = next;
    state = { kind: 'ready' };
    clearInterval(timer);
    timer = setInterval(tick, 1000);
    tick();
  };

  const confirm = async () => {
    if (!quote || state.kind !== 'ready') return;
    const confirmed = quote;
    state = { kind: 'busy', what: 'Opening the position…' };
    draw();
    try {
      const fill = await callTool<Fill>(app, 'open_position', { ...tradeArgs(confirmed), quoteId: confirmed.quoteId });
      state = { kind: 'filled', fill };
      void tellModel(
        app,
        fill.position
          ? `The user confirmed the trade in the ticket: position ${fill.position.positionId} (${describe(confirmed)}) opened at ${fill.position.entryPrice}.`
          : `The user confirmed the trade in the ticket (${describe(confirmed)}); intent ${fill.intentId} is pending: check it with get_intent_status.`,
      );
    } catch (error) {
      state =
        error instanceof ToolRefusal && STALE_QUOTE.has(error.code)
          ? { kind: 'expired', reason: `${error.message}` }
          : { kind: 'failed', message: failureText(error) };
    }
    draw();
  };

  const cancel = () => {
    if (!quote) return;
    state = { kind: 'cancelled' };
    void tellModel(app, `The user cancelled the previewed trade (${describe(quote)}); nothing was opened.`);
    draw();
  };

  const previewAgain = async () => {
    if (!quote) return;
    state = { kind: 'busy', what: 'Getting a new quote…' };
    draw();
    try {
      start(await callTool<Quote>(app, 'preview_trade', tradeArgs(quote)));
    } catch (error) {
      state = { kind: 'failed', message: failureText(error) };
      draw();
    }
  };

  function draw(): void {
    if (!quote) return;
    const q = quote;
    const done = state.kind === 'filled' || state.kind === 'cancelled';
    if (done || state.kind === 'expired') clearInterval(timer);
    show(
      root,
      h(
        'header',
        { class: 'title-row' },
        h(
          'h1',
          {},
          h('span', { class: `side ${q.side}` }, q.side === 'long' ? 'Long' : 'Short'),
          ` ${q.market} ${q.leverage}x`,
        ),
        countdown(state, secondsLeft()),
      ),
      h(
        'dl',
        { class: 'facts' },
        fact('Margin (most you can lose)', usd(q.marginUsd)),
        fact('Leverage', `${q.leverage}x`),
        fact('Notional', usd(q.notionalUsd)),
        fact('Estimated entry', price(q.estimatedEntryPrice, q.market)),
        fact('Bid / ask', `${price(q.bid, q.market)} / ${price(q.ask, q.market)}`),
        fact('Bust price', price(q.bustPrice, q.market), 'warn'),
        fact('Distance to liquidation', percent(q.liquidationDistancePercent)),
        fact('Available balance', usd(q.availableBalanceUsd)),
      ),
      h(
        'table',
        { class: 'table' },
        h('caption', {}, 'If the price moves'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Move'),
            h('th', { scope: 'col' }, 'Exit'),
            h('th', { scope: 'col' }, 'PnL'),
          ),
        ),
        h(
          'tbody',
          {},
          ...q.scenarios.map((s) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, s.label),
              h('td', {}, price(s.exitPrice, q.market)),
              h(
                'td',
                { class: tone(s.pnlUsd) },
                s.liquidated ? `${signedUsd(s.pnlUsd)} (liquidated)` : signedUsd(s.pnlUsd),
              ),
            ),
          ),
        ),
      ),
      guardrails(q),
      outcome(state, q),
      actions(state, { confirm, cancel, previewAgain }),
    );
  }

  return {
    result(result: CallToolResult) {
      try {
        start(dataOf<Quote>(result));
      } catch (error) {
        show(root, h('p', { class: 'error' }, failureText(error)));
      }
    },
    dispose: () => clearInterval(timer),
  };
}

function countdown(state: State, seconds: number): HTMLElement {
  if (state.kind === 'expired') return h('span', { class: 'badge loss' }, 'Quote expired');
  if (state.kind === 'filled') return h('span', { class: 'badge gain' }, 'Confirmed');
  if (state.kind === 'cancelled') return h('span', { class: 'badge' }, 'Cancelled');
  if (state.kind === 'busy') return h('span', { class: 'badge' }, 'Working…');
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return h(
    'span',
    {
      class: `badge ${seconds <= 30 ? 'warn' : ''}`.trim(),
      role: 'timer',
      'aria-label': `Quote valid for ${seconds} seconds`,
    },
    `Quote valid ${text}`,
  );
}

function guardrails(q: Quote): HTMLElement {
  const g = q.guardrails;
  const limits = [
    g.maxMarginPerTradeUsd === null ? null : `margin per trade up to ${usd(g.maxMarginPerTradeUsd)}`,
    g.maxLeverage === null ? null : `leverage up to ${g.maxLeverage}x`,
    g.maxDailyNotionalUsd === null ? null : `daily notional up to ${usd(g.maxDailyNotionalUsd)}`,
    g.maxOpenPositions === null ? null : `at most ${g.maxOpenPositions} open positions`,
    g.allowedMarkets === null ? null : `markets: ${g.allowedMarkets.join(', ')}`,
    g.requireConfirmation ? 'each trade needs a preview and your confirmation' : null,
  ].filter((limit): limit is string => limit !== null);
  return h(
    'section',
    { class: 'note', 'aria-label': 'Guardrails' },
    h('h2', {}, 'Guardrails that apply'),
    limits.length
      ? h('ul', {}, ...limits.map((limit) => h('li', {}, limit)))
      : h('p', {}, 'The owner set no limits for this connection.'),
  );
}

function outcome(state: State, q: Quote): HTMLElement | null {
  switch (state.kind) {
    case 'filled': {
      const p = state.fill.position;
      return p
        ? h(
            'p',
            { class: 'result gain', role: 'status' },
            `Position ${p.positionId} opened: ${q.side} ${q.market} ${usd(p.notionalUsd)} at ${price(p.entryPrice, q.market)}, bust price ${price(p.bustPrice, q.market)} (${percent(p.liquidationDistancePercent)} away).`,
          )
        : h(
            'p',
            { class: 'result', role: 'status' },
            `Submitted. The fill is not confirmed yet (intent ${state.fill.intentId}); it may still execute, so do not submit it again.`,
          );
    }
    case 'cancelled':
      return h('p', { class: 'result', role: 'status' }, 'Cancelled. No position was opened.');
    case 'expired':
      return h(
        'p',
        { class: 'result loss', role: 'status' },
        `${state.reason} Prices move: get a new quote to see the current terms, then confirm again.`,
      );
    case 'failed':
      return h('p', { class: 'result loss', role: 'alert' }, state.message);
    case 'busy':
      return h('p', { class: 'result', role: 'status' }, state.what);
    default:
      return null;
  }
}

function actions(
  state: State,
  on: { confirm: () => void; cancel: () => void; previewAgain: () => void },
): HTMLElement | null {
  if (state.kind === 'filled' || state.kind === 'cancelled') return null;
  const busy = state.kind === 'busy';
  if (state.kind === 'expired') {
    return h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'primary', onclick: on.previewAgain }, 'Preview again'),
      h('button', { type: 'button', onclick: on.cancel }, 'Cancel'),
    );
  }
  return h(
    'div',
    { class: 'actions' },
    h(
      'button',
      { type: 'button', class: 'primary', disabled: busy || state.kind === 'failed', onclick: on.confirm },
      'Confirm',
    ),
    h('button', { type: 'button', disabled: busy, onclick: on.cancel }, 'Cancel'),
  );
}
