import { type Hex, recoverAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { intentId } from './intent-signing';
import { type OwnerActionMessage, ownerActionId, signOwnerAction } from './owner-action-signing';

const owner = generatePrivateKey();
const wallet = privateKeyToAccount(owner).address;
const withdraw: OwnerActionMessage = {
  kind: 'withdraw',
  message: { wallet, to: wallet, amountMicro: 25_000_000n, nonce: 1n, expiresAt: 1_900_000_000n },
};

describe('owner action signing', () => {
  it('derives a 32-byte id that changes with the kind and any field', () => {
    const id = ownerActionId(withdraw);
    expect(id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(ownerActionId({ ...withdraw, message: { ...withdraw.message, amountMicro: 25_000_001n } })).not.toBe(id);
    const stake: OwnerActionMessage = {
      kind: 'stake',
      message: { wallet, amountMicro: 25_000_000n, nonce: 1n, expiresAt: 1_900_000_000n },
    };
    const unstake: OwnerActionMessage = { kind: 'unstake', message: stake.message };
    expect(ownerActionId(stake)).not.toBe(ownerActionId(unstake));
    // Never the digest of an intent with the same fields.
    expect(ownerActionId(stake)).not.toBe(
      intentId({ kind: 'cancel', message: { wallet, intentId: id, nonce: 1n, expiresAt: 1_900_000_000n } }),
    );
  });

  it('recovers the wallet that signed, and another address for any other key', async () => {
    // The action id is the digest the wallet signs.
    const signer = async (key: Hex) =>
      recoverAddress({ hash: ownerActionId(withdraw), signature: await signOwnerAction(withdraw, key) });
    await expect(signer(owner)).resolves.toBe(wallet);
    const sessionKey = generatePrivateKey();
    await expect(signer(sessionKey)).resolves.toBe(privateKeyToAccount(sessionKey).address);
  });
});
