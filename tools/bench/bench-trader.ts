/** A connected, funded trader for benchmarks: session key registered by the executor, secret stored, token minted. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SESSION_KEYS_QUEUE } from '@paper/contracts';
import { approvalFromGuardrails, signApproval } from '@paper/exchange-signing';
import { SessionKeyVault } from '@paper/session-key-vault';
import { Queue } from 'bullmq';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { Client } from 'pg';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

export const DEV_ENCRYPTION_KEY = 'dev-only-session-key-encryption-key-change-me-in-production';

export interface BenchIssuer {
  jwksUrl: string;
  mint(claims: { wallet: string; sessionKey: string }, baseUrl: string): Promise<string>;
  stop(): void;
}

export async function startBenchIssuer(): Promise<BenchIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' };
  const server = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    mint: ({ wallet, sessionKey }, baseUrl) =>
      new SignJWT({ wallet, session_key: sessionKey, scope: 'trade:read trade:write', client_id: 'bench' })
        .setProtectedHeader({ alg: 'ES256', kid: 'bench', typ: 'at+jwt' })
        .setIssuer(baseUrl)
        .setAudience(`${baseUrl}/api/v1`)
        .setSubject(wallet)
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(privateKey),
    stop: () => server.close(),
  };
}

export interface BenchStack {
  baseUrl: string;
  appUrls: Record<string, string>;
  redisPrefix: string;
  database: { url: string };
}

export async function connectBenchTrader(
  stack: BenchStack,
  issuer: BenchIssuer,
  redisUrl: string,
  fundUsd: number,
): Promise<{ wallet: string; token: string }> {
  const ownerKey = generatePrivateKey();
  const sessionPrivateKey = generatePrivateKey();
  const wallet = privateKeyToAccount(ownerKey).address.toLowerCase();
  const sessionKey = privateKeyToAccount(sessionPrivateKey).address.toLowerCase();
  const guardrails = {
    maxMarginPerTradeUsd: null,
    maxLeverage: null,
    maxDailyNotionalUsd: null,
    maxOpenPositions: null,
    allowedMarkets: null,
    requireConfirmation: true,
  };
  const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
  const signature = await signApproval(
    approvalFromGuardrails(wallet, sessionKey, guardrails, BigInt(expiresAt)),
    ownerKey,
  );
  const url = new URL(redisUrl);
  const queue = new Queue(SESSION_KEYS_QUEUE.queue, {
    connection: { host: url.hostname, port: Number(url.port || 6379) },
    prefix: `${stack.redisPrefix}:bull`,
  });
  await queue.add(
    'register-session-key',
    { wallet, sessionKey, guardrails, expiresAt: String(expiresAt), approvalSignature: signature, label: 'bench' },
    { jobId: `sk-${sessionKey}` },
  );
  await queue.close();
  const db = new Client({ connectionString: stack.database.url });
  await db.connect();
  try {
    const deadline = Date.now() + 20000;
    while ((await db.query(`SELECT 1 FROM exchange.session_keys WHERE address = $1`, [sessionKey])).rowCount === 0) {
      if (Date.now() > deadline) throw new Error('session key not registered');
      await new Promise((r) => setTimeout(r, 100));
    }
    await db.query(
      `INSERT INTO oauth.session_key_secrets (address, wallet, encrypted_private_key, client_id, grant_id, guardrails, label, expires_at)
       VALUES ($1, $2, $3, 'bench', $4, $5, 'bench', to_timestamp($6))`,
      [
        sessionKey,
        wallet,
        new SessionKeyVault(DEV_ENCRYPTION_KEY).encrypt(sessionPrivateKey),
        `grant-${sessionKey}`,
        JSON.stringify(guardrails),
        expiresAt,
      ],
    );
  } finally {
    await db.end();
  }
  for (const [path, body] of [
    ['/dev/faucet', { wallet, usdc: String(fundUsd + 1) }],
    ['/dev/deposit', { wallet, usdc: String(fundUsd + 1), sweep: true }],
  ] as const) {
    const res = await fetch(`${stack.appUrls['trading-executor']}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  }
  return { wallet, token: await issuer.mint({ wallet, sessionKey }, stack.baseUrl) };
}
