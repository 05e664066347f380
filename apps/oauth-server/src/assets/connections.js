// The connections page: sign in with a wallet; listing and revoking are plain forms.
import { api, browserWallet, demoWallet, feedback, hasBrowserWallet, withBusy } from './wallet.js';

const ui = feedback();
const $ = (id) => document.getElementById(id);

async function signIn(wallet) {
  const challenge = await api('/connections/challenge', { wallet: wallet.address });
  ui.status('Check your wallet: sign the sign-in message.');
  const signature = await wallet.signMessage(challenge.message);
  await api('/connections/proof', { challengeId: challenge.challengeId, signature });
  ui.status('Signed in. Loading your connections…');
  window.location.reload();
}

if ($('connect-browser')) {
  $('connect-browser').addEventListener('click', (event) =>
    withBusy(event.currentTarget, ui, async () => signIn(await browserWallet())),
  );
  $('connect-demo').addEventListener('click', (event) =>
    withBusy(event.currentTarget, ui, async () => signIn(await demoWallet({ create: false }))),
  );
  if (!hasBrowserWallet()) {
    $('connect-browser').disabled = true;
    $('no-browser-wallet').hidden = false;
  }
}

for (const form of document.querySelectorAll('form[action*="/revoke"]')) {
  form.addEventListener('submit', (event) => {
    const label = form.querySelector('button')?.getAttribute('aria-label') ?? 'Revoke';
    if (!window.confirm(`${label}? The app will lose this access right away.`)) event.preventDefault();
  });
}
