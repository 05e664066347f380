import { html, type SafeHtml } from '../pages/html';
import { renderPage } from '../pages/page-layout';
import type { ConnectionSummary, SessionKeySummary } from './connections.service';
import { permissionsFor } from '../consent/scope-copy';
import { describeGuardrails, PREVIEW_NOTE } from './guardrails-copy';

export interface ConnectionsPageModel {
  wallet: string | null;
  formToken: string | null;
  connections: ConnectionSummary[];
  keys: SessionKeySummary[];
  notice: string | null;
  paperMode: boolean;
}

const NOTICES: Record<string, string> = {
  connection: 'The connection was revoked. The app can no longer get new tokens and its trading key stopped working.',
  key: 'The trading key was revoked. The app can no longer trade for you with it.',
  'not-found': 'That connection or key was not found for this wallet; it may already be revoked.',
  'signed-out': 'You signed out.',
};

export function noticeFor(param: unknown): string | null {
  return typeof param === 'string' ? (NOTICES[param] ?? null) : null;
}

function date(value: Date | null): string {
  return value ? value.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—';
}

/** The connections page: sign in with a wallet, then list and revoke connections and trading keys. */
export function renderConnectionsPage(model: ConnectionsPageModel): string {
  return renderPage({
    title: 'Your connections',
    data: { wallet: model.wallet, paperMode: model.paperMode },
    scripts: ['connections.js'],
    body: html`
<section class="card" aria-labelledby="connections-title">
  <h1 id="connections-title" tabindex="-1">Your connections</h1>
  <p>Apps you connected to your Paper Perps account, and the trading keys you approved for them.</p>
</section>
${model.notice ? html`<p class="card notice" role="status">${model.notice}</p>` : ''}
<div id="error" class="error-box" role="alert" tabindex="-1" hidden></div>
<p id="status" class="status" role="status" aria-live="polite"></p>
${model.wallet ? signedIn(model) : signIn()}`,
  });
}

function signIn(): SafeHtml {
  return html`<section id="sign-in-box" class="card" aria-labelledby="sign-in-title">
  <h2 id="sign-in-title">Sign in with your wallet</h2>
  <p>Connect the wallet you used and sign a free message. It moves no funds.</p>
  <noscript><p class="notice">Signing in needs JavaScript to talk to your wallet. Every script comes from this site.</p></noscript>
  <div class="actions">
    <button type="button" id="connect-browser" class="primary">Connect browser wallet and sign in</button>
    <button type="button" id="connect-demo">Use my demo wallet (paper trading only)</button>
  </div>
  <p id="no-browser-wallet" class="muted" hidden>No browser wallet was found in this browser.</p>
</section>`;
}

function signedIn(model: ConnectionsPageModel): SafeHtml {
  const token = model.formToken ?? '';
  const shown = new Set(model.connections.map((c) => c.sessionKey?.address));
  const otherKeys = model.keys.filter((k) => !shown.has(k.address));
  return html`<section class="card" aria-labelledby="wallet-title">
  <h2 id="wallet-title">Signed in as <code>${model.wallet}</code></h2>
  <form method="post" action="/connections/sign-out"><input type="hidden" name="formToken" value="${token}">
    <button type="submit">Sign out</button></form>
</section>
<section class="card" aria-labelledby="apps-title">
  <h2 id="apps-title">Connected apps</h2>
  ${model.connections.length === 0 ? html`<p>No app is connected to this wallet.</p>` : html`<ul class="connections">${model.connections.map((c) => connection(c, token))}</ul>`}
</section>
${
  otherKeys.length === 0
    ? ''
    : html`<section class="card" aria-labelledby="keys-title">
  <h2 id="keys-title">Earlier trading keys</h2>
  <p class="muted">Keys that no connected app uses any more: expired, revoked, or left from a connection that ended.</p>
  <ul class="keys">${otherKeys.map((k) => html`<li class="session-key">${key(k, token, 3)}</li>`)}</ul>
</section>`
}`;
}

function connection(c: ConnectionSummary, token: string): SafeHtml {
  const permissions = permissionsFor(c.scopes, false).map((p) => p.title);
  return html`<li class="connection">
  <h3>${c.clientName}</h3>
  <p>Returns to ${c.redirectHosts.join(', ') || '—'} · Allowed to: ${permissions.join(', ') || 'nothing'}</p>
  <p>Connected ${date(c.connectedAt)} · Connection ends ${date(c.expiresAt)}</p>
  ${c.sessionKey ? html`<div class="session-key">${key(c.sessionKey, token, 4)}</div>` : html`<p>No active trading key (read only).</p>`}
  <form method="post" action="/connections/grants/${encodeURIComponent(c.grantId)}/revoke">
    <input type="hidden" name="formToken" value="${token}">
    <button type="submit" class="danger" aria-label="Revoke the connection of ${c.clientName}">Revoke connection</button>
  </form>
</li>`;
}

/** One trading key: its state, dates and guardrails, and a revoke button while it is active. */
function key(k: SessionKeySummary, token: string, level: 3 | 4): SafeHtml {
  const state = { active: 'Active', expired: 'Expired', revoked: 'Revoked' }[k.state];
  const title = html`Trading key <code>${k.address}</code> <span class="badge state-${k.state}">${state}</span>`;
  return html`${level === 3 ? html`<h3>${title}</h3>` : html`<h4>${title}</h4>`}
  <p>For ${k.label ?? 'an app'} · approved ${date(k.createdAt)} · ${k.state === 'expired' ? 'expired' : 'expires'} ${date(k.expiresAt)}</p>
  <dl class="guardrails-list">${describeGuardrails(k.guardrails).map((g) => html`<div><dt>${g.label}</dt><dd>${g.value}</dd></div>`)}</dl>
  ${k.guardrails.requireConfirmation ? html`<p class="muted">${PREVIEW_NOTE}</p>` : ''}
  ${
    k.state === 'active'
      ? html`<form method="post" action="/connections/keys/${k.address}/revoke">
    <input type="hidden" name="formToken" value="${token}">
    <button type="submit" class="danger" aria-label="Revoke trading key ${k.address}">Revoke key</button></form>`
      : ''
  }`;
}
