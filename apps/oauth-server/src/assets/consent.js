// The consent page: connect a wallet, prove ownership, set limits, sign the session-key approval.
import {
  api,
  browserWallet,
  demoWallet,
  describeError,
  feedback,
  hasBrowserWallet,
  pageData,
  shortAddress,
  withBusy,
} from './wallet.js';

const data = pageData();
const ui = feedback();
const $ = (id) => document.getElementById(id);
let wallet = null;

/** Shows one step; moving between steps takes the focus to its heading (not on load: the page starts at the top). */
function show(step, { focus = true } = {}) {
  for (const id of ['step-connect', 'step-sign-in', 'step-review', 'step-done']) $(id).hidden = id !== step;
  $('deny-form').hidden = step === 'step-done';
  if (focus) $(step).querySelector('h2')?.focus();
}

/** Whether the owner grants trading: asked for, and not answered with read-only access. */
function tradingChosen() {
  return data.tradeRequested && document.querySelector('input[name="access"]:checked')?.value !== 'read';
}

function showAccessChoice() {
  const trading = tradingChosen();
  $('trade-access').hidden = !trading;
  $('read-access').hidden = trading;
  $('approve').textContent = trading ? 'Approve and sign' : 'Approve read-only access';
}
for (const radio of document.querySelectorAll('input[name="access"]'))
  radio.addEventListener('change', showAccessChoice);

function showWallet() {
  for (const node of document.querySelectorAll('.wallet-address')) node.textContent = wallet.address;
  for (const node of document.querySelectorAll('.wallet-short')) node.textContent = shortAddress(wallet.address);
  for (const node of document.querySelectorAll('.wallet-kind'))
    node.textContent = wallet.kind === 'demo' ? 'Demo wallet · paper only' : 'Browser wallet';
}

async function connected(next) {
  wallet = next;
  showWallet();
  if (data.wallet && data.wallet === wallet.address) {
    show('step-review');
    ui.status('Wallet already verified for this request.');
  } else {
    show('step-sign-in');
    ui.status(`Connected ${shortAddress(wallet.address)}. Next, sign in to prove it is yours.`);
  }
}

$('connect-browser').addEventListener('click', (event) =>
  withBusy(event.currentTarget, ui, async () => {
    ui.status('Waiting for your wallet…');
    await connected(await browserWallet());
  }),
);

$('connect-demo').addEventListener('click', (event) =>
  withBusy(event.currentTarget, ui, async () => {
    await connected(await demoWallet());
  }),
);

$('switch-wallet').addEventListener('click', () => {
  wallet = null;
  ui.clear();
  show('step-connect', { focus: false });
});

$('sign-in').addEventListener('click', (event) =>
  withBusy(event.currentTarget, ui, async () => {
    const challenge = await api(`${data.base}/challenge`, { wallet: wallet.address });
    ui.status('Check your wallet: sign the sign-in message.');
    const signature = await wallet.signMessage(challenge.message);
    await api(`${data.base}/proof`, { challengeId: challenge.challengeId, signature });
    data.wallet = wallet.address;
    ui.status('Signed in. Review what the app asks for.');
    show('step-review');
  }),
);

/** Reads the limits form; returns { guardrails, expiresInDays }, or marks the field to fix and throws. */
function readLimits() {
  const form = $('guardrails');
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  for (const node of form.querySelectorAll('.field-error')) node.textContent = '';
  // The field keeps focus and is described by its error (aria-describedby); the alert repeats it without taking focus.
  const fail = (input, errorId, message) => {
    input.setAttribute('aria-invalid', 'true');
    $(errorId).textContent = message;
    input.focus();
    throw Object.assign(new Error(message), { keepFocus: true });
  };
  const amount = (id, label) => {
    const input = $(id);
    const value = input.value.trim().replace(/,/g, '');
    if (value === '') return null;
    if (!/^\d{1,12}(\.\d{1,6})?$/.test(value) || Number(value) <= 0)
      fail(input, `${id}-error`, `${label}: enter an amount in USDC like 100 or 12.5, or leave it empty for no limit.`);
    return value;
  };
  const whole = (id, label, min, max, optional = true) => {
    const input = $(id);
    const value = input.value.trim();
    if (value === '' && optional) return null;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      fail(input, `${id}-error`, `${label}: enter a whole number from ${min} to ${max}.`);
    return n;
  };
  const markets = [...form.querySelectorAll('input[name="market"]:checked')].map((i) => i.value);
  if (markets.length === 0)
    fail(
      form.querySelector('input[name="market"]'),
      'markets-error',
      'Markets: choose at least one market the app may trade.',
    );
  return {
    guardrails: {
      maxMarginPerTradeUsd: amount('max-margin', 'Maximum margin per trade'),
      maxLeverage: whole('max-leverage', 'Maximum leverage', 1, 1000),
      maxDailyNotionalUsd: amount('max-daily', 'Maximum daily notional'),
      maxOpenPositions: whole('max-positions', 'Maximum open positions', 1, 10000),
      allowedMarkets: markets,
      requireConfirmation: $('confirmations').checked,
    },
    expiresInDays: whole('expiry-days', 'Trading key lifetime', 1, 30, false),
  };
}

function finish(redirectTo, title, text) {
  $('done-title').textContent = title;
  $('done-text').textContent = text;
  $('done-link').href = redirectTo;
  show('step-done');
  // A moment to read the confirmation; the link works right away.
  setTimeout(() => window.location.assign(redirectTo), 1500);
}

$('approve').addEventListener('click', (event) =>
  withBusy(event.currentTarget, ui, async () => {
    if (!wallet) throw new Error('Connect your wallet first.');
    let result;
    if (tradingChosen()) {
      const limits = readLimits();
      const prepared = await api(`${data.base}/approval`, limits);
      ui.status('Check your wallet: sign the approval of the new trading key and your limits.');
      const signature = await wallet.signTypedData(prepared.typedData);
      ui.status('Registering your trading key with the exchange…');
      result = await api(`${data.base}/approve`, { signature });
    } else {
      result = await api(`${data.base}/approve`, data.tradeRequested ? { readOnly: true } : {});
    }
    ui.status('');
    finish(
      result.redirectTo,
      'Connected',
      `${data.clientName} is now connected. Taking you back to ${data.redirectHost}…`,
    );
  }),
);

// The faucet's progress and result appear below its button, which then says what happened.
$('fund')?.addEventListener('click', (event) => {
  const button = event.currentTarget;
  const result = $('fund-result');
  return withBusy(button, ui, async () => {
    result.textContent = 'Asking the faucet for test USDC…';
    try {
      const funded = await api('/connections/faucet', {});
      result.textContent = `Added ${Number(funded.usdc).toLocaleString('en-US')} test USDC to ${shortAddress(funded.wallet)} on the exchange.`;
      button.textContent = 'Funded: add more test USDC';
      button.classList.add('funded');
    } catch (error) {
      // Said below the button too; the alert repeats it without taking the owner away from here.
      result.textContent = describeError(error);
      throw Object.assign(error instanceof Error ? error : new Error(describeError(error)), { keepFocus: true });
    }
  });
});

/** Tells the owner how large a trade these limits allow, and warns when no position is possible. */
function updateLargestTrade() {
  const out = $('largest-trade');
  if (!out) return;
  const margin = Number($('max-margin').value.replace(/,/g, ''));
  const leverage = Number($('max-leverage').value);
  if (!margin || !leverage) {
    out.textContent = '';
    return;
  }
  const largest = margin * leverage;
  const text = `With these limits the largest trade is ${largest.toLocaleString('en-US')} USDC of notional.`;
  out.textContent =
    largest < data.minNotionalUsd
      ? `${text} That is below the exchange minimum of ${data.minNotionalUsd.toLocaleString('en-US')} USDC, so the app could not open any position.`
      : text;
  out.classList.toggle('warning', largest < data.minNotionalUsd);
}
for (const id of ['max-margin', 'max-leverage']) $(id)?.addEventListener('input', updateLargestTrade);
updateLargestTrade();

// Without scripts the form posts and the browser returns to the app; with them the page says so first.
$('deny-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void withBusy($('deny'), ui, async () => {
    ui.status('Denying the request…');
    const result = await api(`${data.base}/deny`, {});
    ui.status('');
    finish(
      result.redirectTo,
      'Request denied',
      `Nothing was shared with ${data.clientName}. Taking you back to ${data.redirectHost}…`,
    );
  });
});

if (!hasBrowserWallet()) {
  $('connect-browser').disabled = true;
  $('no-browser-wallet').hidden = false;
}
show('step-connect', { focus: false });
