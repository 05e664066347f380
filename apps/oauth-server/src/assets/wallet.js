// Shared helpers of the consent and connections pages: wallets (EIP-1193 browser wallet or the local
// demo wallet), calls to this server, and plain-language messages. No code is loaded from elsewhere.

const DEMO_KEY_STORAGE = 'paperPerps.demoWalletKey';

export function pageData() {
  const node = document.getElementById('page-data');
  return node ? JSON.parse(node.textContent) : {};
}

export class ApiError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** POSTs JSON to this server and returns the JSON answer, or throws ApiError with the server's message. */
export async function api(path, body) {
  let res;
  try {
    res = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
  } catch {
    throw new ApiError('We could not reach the server. Check your connection and try again.', 'network_error', 0);
  }
  const payload = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = payload.error ?? {};
    throw new ApiError(
      error.message ?? `The server answered with an error (${res.status}). Please try again.`,
      error.code ?? 'error',
      res.status,
    );
  }
  return payload;
}

function utf8Hex(text) {
  return '0x' + Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function hasBrowserWallet() {
  return typeof window.ethereum?.request === 'function';
}

/** Connects the browser wallet (EIP-1193) and returns a signer for its first account. */
export async function browserWallet() {
  const provider = window.ethereum;
  if (!hasBrowserWallet()) throw new Error('No browser wallet was found. Install one, or use a demo wallet.');
  const accounts = await provider.request({ method: 'eth_requestAccounts' });
  if (!accounts?.length) throw new Error('Your wallet did not share an account. Unlock it and try again.');
  const address = String(accounts[0]).toLowerCase();
  return {
    kind: 'browser',
    address,
    signMessage: (message) => provider.request({ method: 'personal_sign', params: [utf8Hex(message), address] }),
    async signTypedData(typedData) {
      await ensureChain(provider, Number(typedData.domain.chainId));
      return provider.request({ method: 'eth_signTypedData_v4', params: [address, JSON.stringify(typedData)] });
    },
  };
}

async function ensureChain(provider, chainId) {
  const current = await provider.request({ method: 'eth_chainId' }).catch(() => null);
  if (current !== null && Number(current) === chainId) return;
  try {
    await provider.request({
      method: 'wallet_switchEthereumChain',
      params: [{ chainId: '0x' + chainId.toString(16) }],
    });
  } catch (error) {
    if (error?.code === 4001) throw error;
    throw new Error(
      `Switch your wallet to Arbitrum One (chain ${chainId}) and try again. The approval is only valid there.`,
    );
  }
}

function loadDemoLibrary() {
  if (window.PaperDemoWallet) return Promise.resolve(window.PaperDemoWallet);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/oauth-assets/demo-wallet.js';
    script.onload = () => resolve(window.PaperDemoWallet);
    script.onerror = () => reject(new Error('The demo wallet could not be loaded. Reload the page and try again.'));
    document.head.append(script);
  });
}

export function storedDemoKey() {
  try {
    return localStorage.getItem(DEMO_KEY_STORAGE);
  } catch {
    return null;
  }
}

/** The demo wallet of this browser (created on first use). Paper trading only. */
export async function demoWallet({ create = true } = {}) {
  const lib = await loadDemoLibrary();
  let key = storedDemoKey();
  if (!key) {
    if (!create) throw new Error('No demo wallet is stored in this browser. Use the browser where you created it.');
    key = lib.generatePrivateKey();
    try {
      localStorage.setItem(DEMO_KEY_STORAGE, key);
    } catch {
      throw new Error('This browser does not allow storing the demo wallet. Allow site data, or use a browser wallet.');
    }
  }
  const account = lib.account(key);
  return {
    kind: 'demo',
    address: account.address.toLowerCase(),
    signMessage: (message) => account.signMessage(message),
    signTypedData: (typedData) => account.signTypedData(typedData),
  };
}

/** A wallet or server error in words a person understands. */
export function describeError(error) {
  switch (error?.code) {
    case 4001:
    case 'ACTION_REJECTED':
      return 'You declined the request in your wallet. Nothing was signed.';
    case 4100:
      return 'Your wallet has not allowed this site yet. Unlock it, allow the site, and try again.';
    case -32002:
      return 'Your wallet already has a request waiting. Open your wallet to finish or cancel it.';
    default:
      return error?.message || 'Something went wrong. Please try again.';
  }
}

export function shortAddress(address) {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * Reports progress and errors accessibly: a live region, and an alert box that takes focus unless the
 * error belongs to a form field that already has it.
 */
export function feedback() {
  const errorBox = document.getElementById('error');
  const status = document.getElementById('status');
  return {
    error(message, { focus = true } = {}) {
      errorBox.textContent = message;
      errorBox.hidden = false;
      if (focus) errorBox.focus();
      status.textContent = '';
    },
    clear() {
      errorBox.hidden = true;
      errorBox.textContent = '';
    },
    status(message) {
      status.textContent = message;
    },
  };
}

/** Runs an action with the button disabled and marked busy; errors are reported in plain words. */
export async function withBusy(button, ui, action) {
  ui.clear();
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try {
    await action();
  } catch (error) {
    ui.error(describeError(error), { focus: !error?.keepFocus });
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
}
