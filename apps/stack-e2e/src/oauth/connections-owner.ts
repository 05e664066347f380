import { privateKeyToAccount } from 'viem/accounts';

/** The owner signed in on /connections, the way its page's script signs in (wallet signature), for form posts. */
export interface ConnectionsOwner {
  cookie: string;
  formToken: string;
}

async function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Signs the owner in on /connections with a wallet signature and reads the page's form token. */
export async function signInOwner(baseUrl: string, ownerPrivateKey: `0x${string}`): Promise<ConnectionsOwner> {
  const owner = privateKeyToAccount(ownerPrivateKey);
  const challenge = await postJson(`${baseUrl}/connections/challenge`, { wallet: owner.address });
  if (challenge.status !== 200) throw new Error(`challenge answered ${challenge.status}: ${await challenge.text()}`);
  const { challengeId, message } = (await challenge.json()) as { challengeId: string; message: string };
  const proof = await postJson(`${baseUrl}/connections/proof`, {
    challengeId,
    signature: await owner.signMessage({ message }),
  });
  if (proof.status !== 200) throw new Error(`proof answered ${proof.status}: ${await proof.text()}`);
  const cookie = proof.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  const page = await (await fetch(`${baseUrl}/connections`, { headers: { cookie } })).text();
  const formToken = /name="formToken" value="([^"]+)"/.exec(page)?.[1];
  if (!formToken) throw new Error('the connections page shows no form token: not signed in');
  return { cookie, formToken };
}

export interface RevokeAnswer {
  status: number;
  location: string | null;
  retryAfter: string | null;
  /** When the answer arrived (epoch ms). */
  answeredAt: number;
}

/** Posts the page's revoke form for a connection (`grants/<id>`) or a key (`keys/<address>`). */
export async function revokeOnConnectionsPage(
  baseUrl: string,
  owner: ConnectionsOwner,
  what: `grants/${string}` | `keys/${string}`,
): Promise<RevokeAnswer> {
  const res = await fetch(`${baseUrl}/connections/${what}/revoke`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ formToken: owner.formToken }).toString(),
  });
  await res.arrayBuffer();
  return {
    status: res.status,
    location: res.headers.get('location'),
    retryAfter: res.headers.get('retry-after'),
    answeredAt: Date.now(),
  };
}
