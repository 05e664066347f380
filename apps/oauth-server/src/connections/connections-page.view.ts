import { html, type SafeHtml } from '../pages/html';
import { renderPage } from '../pages/page-layout';
import type { ConnectionSummary, SessionKeySummary } from './connections.service';
import { describeGuardrails } from './guardrails-copy';

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
  return html`<section class="card" aria-labelledby="wallet-title">
  <h2 id="wallet-title">Signed in as <code>${model.wallet}</code></h2>
  <form method="post" action="/connections/sign-out"><input type="hidden" name="formToken" value="${token}">
    <button type="submit">Sign out</button></form>
</section>
<section class="card" aria-labelledby="apps-title">
  <h2 id="apps-title">Connected apps</h2>
  ${model.connections.length === 0 ? html`<p>No app is connected to this wallet.</p>` : html`<ul class="connections">${model.connections.map((c) => connection(c, token))}</ul>`}
</section>
<section class="card" aria-labelledby="keys-title">
  <h2 id="keys-title">Trading keys</h2>
  ${model.keys.length === 0 ? html`<p>You have not approved any trading key.</p>` : html`<ul class="keys">${model.keys.map((k) => key(k, token))}</ul>`}
</section>`;
}

function connection(c: ConnectionSummary, token: string): SafeHtml {
  return html`<li class="connection">
  <h3>${c.clientName}</h3>
  <p>Returns to ${c.redirectHosts.join(', ') || '—'} · Permissions: ${c.scopes.join(', ') || 'none'}</p>
  <p>Connected ${date(c.connectedAt)} · Connection ends ${date(c.expiresAt)}</p>
  <p>${c.sessionKey ? html`Trading key <code>${c.sessionKey.address}</code>, valid until ${date(c.sessionKey.expiresAt)}` : 'No active trading key (read only).'}</p>
  <form method="post" action="/connections/grants/${encodeURIComponent(c.grantId)}/revoke">
    <input type="hidden" name="formToken" value="${token}">
    <button type="submit" class="danger" aria-label="Revoke the connection of ${c.clientName}">Revoke connection</button>
  </form>
</li>`;
}

function key(k: SessionKeySummary, token: string): SafeHtml {
  const state = { active: 'Active', expired: 'Expired', revoked: 'Revoked' }[k.state];
  return html`<li class="session-key">
  <h3><code>${k.address}</code> <span class="badge state-${k.state}">${state}</span></h3>
  <p>For ${k.label ?? 'an app'} · approved ${date(k.createdAt)} · ${k.state === 'expired' ? 'expired' : 'expires'} ${date(k.expiresAt)}</p>
  <dl class="guardrails-list">${describeGuardrails(k.guardrails).map((g) => html`<div><dt>${g.label}</dt><dd>${g.value}</dd></div>`)}</dl>
  ${
    k.state === 'active'
      ? html`<form method="post" action="/connections/keys/${k.address}/revoke">
    <input type="hidden" name="formToken" value="${token}">
    <button type="submit" class="danger" aria-label="Revoke trading key ${k.address}">Revoke key</button></form>`
      : ''
  }
</li>`;
}
