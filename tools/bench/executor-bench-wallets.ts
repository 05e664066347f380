/** Wallets for the executor benchmarks: session keys registered through the executor's queue, funded through /dev/faucet and /dev/deposit. */
import { SESSION_KEYS_QUEUE } from '@paper/contracts';
import { approvalFromGuardrails, signApproval } from '@paper/exchange-signing';
import { Queue } from 'bullmq';
import type { Client } from 'pg';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type ExecutorBench, REDIS_URL } from './executor-bench-support';

const GUARDRAILS = {
  maxMarginPerTradeUsd: null,
  maxLeverage: null,
  maxDailyNotionalUsd: null,
  maxOpenPositions: null,
  allowedMarkets: null,
  requireConfirmation: false,
};

export interface BenchWallet {
  wallet: Hex;
  session: Hex;
  sessionKey: string;
}

/** `count` wallets with an approved session key each and 100,000 USDC deposited. */
export async function fundWallets(
  bench: ExecutorBench,
  bullPrefix: string,
  count: number,
  db: Client,
): Promise<BenchWallet[]> {
  const u = new URL(REDIS_URL);
  const connection = { host: u.hostname, port: Number(u.port || 6379) };
  const traders = await Promise.all(
    Array.from({ length: count }, async () => {
      const owner = generatePrivateKey();
      const session = generatePrivateKey();
      const wallet = privateKeyToAccount(owner).address.toLowerCase() as Hex;
      const sessionKey = privateKeyToAccount(session).address.toLowerCase();
      const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 86_400);
      return {
        wallet,
        session,
        sessionKey,
        expiresAt,
        approvalSignature: await signApproval(approvalFromGuardrails(wallet, sessionKey, GUARDRAILS, expiresAt), owner),
      };
    }),
  );
  const keys = new Queue(SESSION_KEYS_QUEUE.queue, { connection, prefix: bullPrefix });
  await keys.addBulk(
    traders.map((t) => ({
      name: 'register-session-key',
      data: {
        wallet: t.wallet,
        sessionKey: t.sessionKey,
        guardrails: GUARDRAILS,
        expiresAt: t.expiresAt.toString(),
        approvalSignature: t.approvalSignature,
        label: 'bench',
      },
      opts: { jobId: `sk-${t.sessionKey}` },
    })),
  );
  for (;;) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM exchange.session_keys`);
    if (rows[0]!.n === count) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await keys.close();
  const post = (path: string, body: unknown) =>
    fetch(`${bench.executorUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  for (const t of traders) {
    await post('/dev/faucet', { wallet: t.wallet, usdc: '100000' });
    await post('/dev/deposit', { wallet: t.wallet, usdc: '100000', sweep: true });
  }
  return traders.map(({ wallet, session, sessionKey }) => ({ wallet, session, sessionKey }));
}
