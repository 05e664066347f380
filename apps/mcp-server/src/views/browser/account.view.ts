/// <reference lib="dom" />
import type { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  callTool,
  dataOf,
  fact,
  failureText,
  h,
  percent,
  price,
  shortAddress,
  show,
  signedUsd,
  tellModel,
  time,
  tone,
  usd,
  type View,
} from './view-kit';

interface Position {
  positionId: string;
  market: string;
  side: 'long' | 'short';
  marginUsd: number;
  leverage: number;
  notionalUsd: number;
  entryPrice: number;
  markPrice: number;
  bustPrice: number;
  estimatedPnlUsd: number;
  estimatedPnlPercent: number;
  liquidationDistancePercent: number;
}

interface Account {
  wallet: string;
  exists: boolean;
  freeUsd: number;
  lockedUsd: number;
  queuedUsd: number;
  unrealizedPnlUsd: number;
  equityUsd: number;
  positions: Position[];
  pendingIntents: unknown[];
}

interface Closed {
  results: {
    positionId: string;
    status: string;
    exitPrice: number | null;
    pnlUsd: number | null;
    feeUsd: number | null;
    reason: string | null;
  }[];
}

/** How often the open positions are read again while the view is visible (public results are cached 5 s). */
const REFRESH_MS = 5000;

/**
 * get_account: balances and open positions with live PnL (read again every few seconds while the view
 * is visible), bust price and distance to liquidation. For the connected wallet each position has a
 * Close button that calls close_positions through the host (the click is the confirmation).
 */
export function accountView(app: App, root: HTMLElement): View {
  let account: Account | undefined;
  let args: Record<string, unknown> = {};
  let updatedAt = 0;
  const notes = new Map<string, { text: string; tone: string }>();
  const closing = new Set<string>();
  let timer: ReturnType<typeof setInterval> | undefined;

  const refresh = async () => {
    if (document.visibilityState !== 'visible' || closing.size > 0) return;
    try {
      account = await callTool<Account>(app, 'get_account', args);
      updatedAt = Date.now();
      draw();
    } catch {
      // Keep the last figures; the next refresh tries again.
    }
  };

  const close = async (position: Position) => {
    closing.add(position.positionId);
    notes.set(position.positionId, { text: 'Closing…', tone: '' });
    draw();
    try {
      const closed = await callTool<Closed>(app, 'close_positions', { positionIds: [position.positionId] });
      const r = closed.results[0]!;
      const text =
        r.status === 'closed' || r.status === 'liquidated'
          ? `Closed at ${price(r.exitPrice ?? 0, position.market)}: ${signedUsd(r.pnlUsd ?? 0)}${r.feeUsd ? ` after a ${usd(r.feeUsd)} fee` : ''}.`
          : r.status === 'pending'
            ? 'Submitted; the close is not confirmed yet.'
            : (r.reason ?? 'Already closed.');
      notes.set(position.positionId, { text, tone: tone(r.pnlUsd ?? 0) });
      void tellModel(
        app,
        `The user closed position ${position.positionId} (${position.side} ${position.market} ${position.leverage}x) from the account view: ${text}`,
      );
    } catch (error) {
      notes.set(position.positionId, { text: failureText(error), tone: 'loss' });
    }
    closing.delete(position.positionId);
    await refresh();
    draw();
  };

  function draw(): void {
    if (!account) return;
    const a = account;
    const canClose = args['wallet'] === undefined;
    const closedHere = [...notes.keys()].filter((id) => !a.positions.some((p) => p.positionId === id));
    show(
      root,
      h(
        'header',
        { class: 'title-row' },
        h('h1', {}, `Account ${shortAddress(a.wallet)}`),
        updatedAt ? h('span', { class: 'muted small' }, `Updated ${time(updatedAt)}`) : null,
      ),
      a.exists ? null : h('p', { class: 'muted' }, 'This wallet has not used the exchange yet.'),
      h(
        'dl',
        { class: 'facts' },
        fact('Equity', usd(a.equityUsd)),
        fact('Free', usd(a.freeUsd)),
        fact('Margin in positions', usd(a.lockedUsd)),
        fact('Queued winnings', usd(a.queuedUsd)),
        fact('Unrealized PnL', h('span', { class: tone(a.unrealizedPnlUsd) }, signedUsd(a.unrealizedPnlUsd))),
      ),
      h('h2', {}, a.positions.length ? `Open positions (${a.positions.length})` : 'No open positions'),
      ...a.positions.map((p) =>
        positionCard(p, canClose, closing.has(p.positionId), notes.get(p.positionId), () => void close(p)),
      ),
      ...closedHere.map((id) =>
        h('p', { class: `result ${notes.get(id)!.tone}`, role: 'status' }, `Position ${id}: ${notes.get(id)!.text}`),
      ),
      a.pendingIntents.length
        ? h('p', { class: 'muted' }, `${a.pendingIntents.length} intent(s) pending execution.`)
        : null,
    );
  }

  return {
    input(input) {
      args = input;
    },
    result(result: CallToolResult) {
      try {
        account = dataOf<Account>(result);
        updatedAt = Date.now();
        clearInterval(timer);
        timer = setInterval(() => void refresh(), REFRESH_MS);
        draw();
      } catch (error) {
        show(root, h('p', { class: 'error' }, failureText(error)));
      }
    },
    dispose: () => clearInterval(timer),
  };
}

function positionCard(
  p: Position,
  canClose: boolean,
  busy: boolean,
  note: { text: string; tone: string } | undefined,
  onClose: () => void,
): HTMLElement {
  const risk = Math.max(0, Math.min(100, 100 - p.liquidationDistancePercent * 10));
  return h(
    'article',
    { class: 'position', 'aria-label': `Position ${p.positionId}` },
    h(
      'header',
      { class: 'title-row' },
      h(
        'h3',
        {},
        h('span', { class: `side ${p.side}` }, p.side === 'long' ? 'Long' : 'Short'),
        ` ${p.market} ${p.leverage}x`,
        h('span', { class: 'muted small' }, ` #${p.positionId}`),
      ),
      h(
        'strong',
        { class: `pnl ${tone(p.estimatedPnlUsd)}` },
        `${signedUsd(p.estimatedPnlUsd)} (${percent(p.estimatedPnlPercent, true)})`,
      ),
    ),
    h(
      'dl',
      { class: 'facts compact' },
      fact('Margin', usd(p.marginUsd)),
      fact('Notional', usd(p.notionalUsd)),
      fact('Entry', price(p.entryPrice, p.market)),
      fact('Mark', price(p.markPrice, p.market)),
      fact('Bust price', price(p.bustPrice, p.market), 'warn'),
      fact('To liquidation', percent(p.liquidationDistancePercent)),
    ),
    h(
      'div',
      {
        class: 'meter',
        role: 'meter',
        'aria-label': 'Liquidation risk',
        'aria-valuemin': 0,
        'aria-valuemax': 100,
        'aria-valuenow': Math.round(risk),
      },
      h('span', { style: `width:${risk}%` }),
    ),
    note ? h('p', { class: `result ${note.tone}`, role: 'status' }, note.text) : null,
    canClose
      ? h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', disabled: busy, onclick: onClose }, `Close ${p.market} ${p.side}`),
        )
      : null,
  );
}
