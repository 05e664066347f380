import { approvalFromGuardrails, depositProxyAddress, signApproval } from '@paper/exchange-signing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ExchangeTestKit, NO_GUARDRAILS } from '../testing/exchange-test-kit';

describe('session-key registration (PostgreSQL)', () => {
  let kit: ExchangeTestKit;
  beforeAll(async () => {
    kit = await ExchangeTestKit.start();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  async function request(days: number, signer?: `0x${string}`) {
    const owner = generatePrivateKey();
    const wallet = privateKeyToAccount(owner).address;
    const sessionKey = privateKeyToAccount(generatePrivateKey()).address;
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + Math.floor(days * 86400));
    const guardrails = { ...NO_GUARDRAILS, maxLeverage: 50, allowedMarkets: ['BTC' as const] };
    const approvalSignature = await signApproval(
      approvalFromGuardrails(wallet, sessionKey, guardrails, expiresAt),
      signer ?? owner,
    );
    return { wallet, sessionKey, guardrails, expiresAt: expiresAt.toString(), approvalSignature, label: 'Claude' };
  }

  it('registers an approved key and creates the account with its deposit proxy address', async () => {
    const req = await request(7);
    const result = await kit.sessionKeys.register(req);
    expect(result).toMatchObject({ status: 'registered', depositAddress: depositProxyAddress(req.wallet) });
    const [acct] = await kit.db.query(`SELECT deposit_address FROM exchange.accounts WHERE wallet = $1`, [
      req.wallet.toLowerCase(),
    ]);
    expect(acct.deposit_address).toBe(depositProxyAddress(req.wallet));
    const [key] = await kit.db.query(`SELECT wallet, guardrails, label FROM exchange.session_keys WHERE address = $1`, [
      req.sessionKey.toLowerCase(),
    ]);
    expect(key).toMatchObject({
      wallet: req.wallet.toLowerCase(),
      label: 'Claude',
      guardrails: { maxLeverage: 50, allowedMarkets: ['BTC'] },
    });
  });

  it('refuses an approval not signed by the owner, or longer than 30 days', async () => {
    expect(await kit.sessionKeys.register(await request(7, generatePrivateKey()))).toMatchObject({
      status: 'refused',
      reason: 'bad_approval_signature',
    });
    expect(await kit.sessionKeys.register(await request(31))).toMatchObject({
      status: 'refused',
      reason: 'session_key_too_long',
    });
    expect(await kit.sessionKeys.register(await request(-1))).toMatchObject({
      status: 'refused',
      reason: 'session_key_expired',
    });
  });

  it('revokes a key for good', async () => {
    const req = await request(7);
    await kit.sessionKeys.register(req);
    expect(await kit.sessionKeys.revoke({ wallet: req.wallet, sessionKey: req.sessionKey })).toMatchObject({
      status: 'revoked',
    });
    expect(await kit.sessionKeys.register(req)).toMatchObject({ status: 'refused', reason: 'session_key_revoked' });
    expect(await kit.sessionKeys.revoke({ wallet: req.sessionKey, sessionKey: req.wallet })).toMatchObject({
      status: 'not_found',
    });
  });
});
