import type { TestStack } from '@paper/dev-stack';

/** Paper funds for the wallet: the executor's development faucet, then a swept deposit onto the exchange. */
export async function fund(stack: TestStack, wallet: string): Promise<void> {
  const executor = stack.appUrls['trading-executor'];
  for (const [path, body] of [
    ['/dev/faucet', { wallet, usdc: '1000' }],
    ['/dev/deposit', { wallet, usdc: '500', sweep: true }],
  ] as const) {
    const res = await fetch(`${executor}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  }
}
