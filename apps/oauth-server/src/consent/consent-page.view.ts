import { QUOTE_VALIDITY_TEXT } from '@paper/contracts';
import { DEFAULT_MARKET_CONFIGS } from '@paper/exchange';
import { html, type SafeHtml } from '../pages/html';
import { renderPage } from '../pages/page-layout';
import type { ConsentView } from './consent.service';
import { type PermissionCopy, permissionsFor } from './scope-copy';

/**
 * Defaults of the limits form. 100 USDC at up to 200x allows positions from the exchange minimum of
 * 10,000 USDC notional up to 20,000 USDC; lower leverage caps would leave no tradable position at all.
 */
export const GUARDRAIL_DEFAULTS = {
  maxMarginPerTradeUsd: '100',
  maxLeverage: 200,
  maxDailyNotionalUsd: '50000',
  maxOpenPositions: 5,
  expiresInDays: 7,
} as const;

/** The smallest position the exchange opens (margin x leverage), in whole USDC. */
export const MIN_NOTIONAL_USD = Number(DEFAULT_MARKET_CONFIGS.BTC.minNotionalMicro / 1_000_000n);

/** The consent page: connect, sign in, review and set limits, approve or deny. Steps are revealed by consent.js. */
export function renderConsentPage(view: ConsentView): string {
  const base = `/interaction/${encodeURIComponent(view.uid)}`;
  return renderPage({
    title: `Connect ${view.clientName}`,
    data: { ...view, base, defaults: GUARDRAIL_DEFAULTS, minNotionalUsd: MIN_NOTIONAL_USD },
    scripts: ['consent.js'],
    body: html`
<section class="card request" aria-labelledby="request-title">
  <h1 id="request-title"><span class="client-name">${view.clientName}</span> wants to connect to your Paper Perps account</h1>
  <h2 class="asks-title">${view.clientName} asks to</h2>
  <ul class="scopes">${permissionsFor(view.scopes, view.staysConnected).map(permissionItem)}</ul>
  <p>After you decide, you will be sent back to <strong class="redirect-host">${view.redirectHost}</strong>.
  Only continue if you started this connection from that app.</p>
  ${
    view.clientHost
      ? html`<p class="client-host">This app is published by <strong>${view.clientHost}</strong> (its name is what the app calls itself; the address is checked).</p>`
      : ''
  }
  <p class="muted">App id: <code>${view.clientId}</code></p>
</section>
<noscript><p class="card notice">This page needs JavaScript to talk to your wallet. Every script comes from this site; nothing is loaded from elsewhere. You can still deny the request below.</p></noscript>
<div id="error" class="error-box" role="alert" tabindex="-1" hidden></div>
<p id="status" class="status" role="status" aria-live="polite"></p>

<section id="step-connect" class="card step" aria-labelledby="connect-title" hidden>
  <h2 id="connect-title" tabindex="-1">Step 1 of 3 · Connect your wallet</h2>
  <p>Choose the wallet whose account the app will use. We never see your wallet's private key.</p>
  <div class="actions">
    <button type="button" id="connect-browser" class="primary">Connect browser wallet</button>
    <button type="button" id="connect-demo">Use a demo wallet (paper trading only)</button>
  </div>
  <p id="no-browser-wallet" class="muted" hidden>No browser wallet was found. Install one (for example a browser extension), or use a demo wallet.</p>
  <p class="muted demo-note"><strong>Demo wallet:</strong> a new wallet created in this browser for paper trading.
  Its key is kept only in this browser's storage. Never send real funds to it.</p>
</section>

<section id="step-sign-in" class="card step" aria-labelledby="sign-in-title" hidden>
  <h2 id="sign-in-title" tabindex="-1">Step 2 of 3 · Prove it is your wallet</h2>
  <p>Connected: <code class="wallet-address"></code> <span class="wallet-kind badge"></span></p>
  <p>Sign a free message to show you own this wallet. It moves no funds and costs nothing.</p>
  <div class="actions">
    <button type="button" id="sign-in" class="primary">Sign in with this wallet</button>
    <button type="button" id="switch-wallet">Use a different wallet</button>
  </div>
</section>

<section id="step-review" class="card step" aria-labelledby="review-title" hidden>
  <h2 id="review-title" tabindex="-1">Step 3 of 3 · Review and set limits</h2>
  <p>Signed in as <code class="wallet-address"></code> <span class="wallet-kind badge"></span></p>
  ${view.tradeRequested ? accessChoice(view) : ''}
  <div id="trade-access"${view.tradeRequested ? '' : html` hidden`}>${view.tradeRequested ? html`${tradeSummary(view)}${guardrailsForm()}` : ''}</div>
  <div id="read-access"${view.tradeRequested ? html` hidden` : ''}>${readSummary(view)}
  <p>No trading key will be created: the app can only read${view.tradeRequested ? html`, and asks you again if it needs to trade` : ''}.</p></div>
  ${view.paperMode ? faucet() : ''}
  <div class="actions">
    <button type="button" id="approve" class="primary">${view.tradeRequested ? 'Approve and sign' : 'Approve read-only access'}</button>
  </div>
</section>

<section id="step-done" class="card step" aria-labelledby="done-title" hidden>
  <h2 id="done-title" tabindex="-1"></h2>
  <p id="done-text"></p>
  <p><a id="done-link" href="#">Return to ${view.clientName} now</a></p>
</section>

<form id="deny-form" class="card deny" method="post" action="${base}/deny">
  <p>Not what you expected? Deny and nothing will be shared.</p>
  <button type="submit" id="deny" class="danger">Deny</button>
</form>`,
  });
}

function tradeSummary(view: ConsentView): SafeHtml {
  return html`<p class="key-sentence"><strong>${view.clientName}</strong> will be able to open and close positions with the funds of
  <code class="wallet-short"></code> within the limits you set; it can never withdraw.</p>
  <p>You approve a new trading key for this app by signing the limits below. The key stays on our servers, can only open,
  close and cancel, and stops working when it expires or when you revoke it at <a href="/connections">your connections</a>.</p>`;
}

/** An app that asks to trade gets what the owner chooses here: trading within limits, or read-only access. */
function accessChoice(view: ConsentView): SafeHtml {
  return html`<fieldset class="access-choice">
  <legend>What may <span class="client-name">${view.clientName}</span> do?</legend>
  <label class="choice"><input type="radio" name="access" value="trade" checked>
    <span><strong>Trade within limits you set</strong><br><span class="muted">See the account, and open and close positions within the limits below. It can never withdraw.</span></span></label>
  <label class="choice"><input type="radio" name="access" value="read">
    <span><strong>Read only</strong><br><span class="muted">See the account; no trading key is created and the app cannot trade.</span></span></label>
</fieldset>`;
}

function readSummary(view: ConsentView): SafeHtml {
  return html`<p class="key-sentence"><strong>${view.clientName}</strong> will be able to see the account of <code class="wallet-short"></code>; it cannot trade or withdraw.</p>`;
}

function permissionItem(permission: PermissionCopy): SafeHtml {
  const id = permission.scope ? html` <span class="muted">(${permission.scope})</span>` : '';
  return html`<li class="scope"><strong>${permission.title}</strong>${id}<br>${permission.detail}</li>`;
}

function guardrailsForm(): SafeHtml {
  const d = GUARDRAIL_DEFAULTS;
  return html`<form id="guardrails" class="guardrails" novalidate>
  <fieldset>
    <legend>Limits for this app</legend>
    <p class="muted">Leave an amount empty for no limit. The exchange's smallest position is ${MIN_NOTIONAL_USD.toLocaleString('en-US')} USDC
    of notional (margin × leverage).</p>
    ${field('max-margin', 'Maximum margin per trade (USDC)', 'The most of your own money one trade may put up.', html`name="maxMarginPerTradeUsd" inputmode="decimal" value="${d.maxMarginPerTradeUsd}"`)}
    ${field('max-leverage', 'Maximum leverage', 'Whole number from 1 to 1000.', html`name="maxLeverage" type="number" min="1" max="1000" step="1" value="${d.maxLeverage}"`)}
    <p id="largest-trade" class="hint" aria-live="polite"></p>
    ${field('max-daily', 'Maximum daily notional (USDC)', 'Total position size (margin × leverage) the app may open per day (UTC).', html`name="maxDailyNotionalUsd" inputmode="decimal" value="${d.maxDailyNotionalUsd}"`)}
    ${field('max-positions', 'Maximum open positions', 'Whole number from 1 to 10000.', html`name="maxOpenPositions" type="number" min="1" max="10000" step="1" value="${d.maxOpenPositions}"`)}
    <fieldset class="markets">
      <legend>Markets the app may trade</legend>
      <label><input type="checkbox" name="market" value="BTC" checked aria-describedby="markets-error"> BTC</label>
      <label><input type="checkbox" name="market" value="ETH" checked aria-describedby="markets-error"> ETH</label>
      <span id="markets-error" class="field-error"></span>
    </fieldset>
    <div class="field checkbox"><label><input id="confirmations" type="checkbox" name="requireConfirmation" checked aria-describedby="confirmations-hint">
      ${PREVIEW_GUARDRAIL_LABEL}</label>
      <span id="confirmations-hint" class="hint">${PREVIEW_GUARDRAIL_HINT}</span></div>
    ${field('expiry-days', 'Trading key lifetime (days)', '1 to 30 days. The connection ends with the key; after that the app must ask you again.', html`name="expiresInDays" type="number" min="1" max="30" step="1" value="${d.expiresInDays}"`)}
  </fieldset>
</form>`;
}

/** The preview guardrail in the words of what the tool API enforces (open_position needs a matching quote). */
export const PREVIEW_GUARDRAIL_LABEL = 'Require a preview of each trade before it is opened';
export const PREVIEW_GUARDRAIL_HINT =
  `Every open must present a quote from a preview of the same trade (market, side, margin and leverage), valid for ${QUOTE_VALIDITY_TEXT} and usable once. ` +
  'Apps that follow the rules show you that preview and ask you first; this service cannot check that you saw it.';

/** A labelled input with its hint and its error message, both linked by aria-describedby. */
function field(id: string, label: string, hint: string, attributes: SafeHtml): SafeHtml {
  return html`<div class="field"><label for="${id}">${label}</label>
      <input id="${id}" ${attributes} aria-describedby="${id}-hint ${id}-error">
      <span id="${id}-hint" class="hint">${hint}</span>
      <span id="${id}-error" class="field-error"></span></div>`;
}

/** The faucet: its result is announced right below its button, where the owner is looking. */
function faucet(): SafeHtml {
  return html`<div class="faucet" id="faucet-box">
  <p><strong>Paper mode.</strong> Balances here are play money. Need some to try trading?</p>
  <button type="button" id="fund" aria-describedby="fund-result">Fund this wallet with test USDC</button>
  <p id="fund-result" class="fund-result" role="status" aria-live="polite"></p>
</div>`;
}
