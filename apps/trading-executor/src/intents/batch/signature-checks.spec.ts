import { type Hex, keccak256, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type SignatureItem, SignatureChecks } from './signature-checks';

describe('SignatureChecks', () => {
  it('checks small batches inline and large ones on its worker thread, with the same answers', async () => {
    const keys = Array.from({ length: 4 }, () => privateKeyToAccount(generatePrivateKey()));
    const items: SignatureItem[] = [];
    for (let i = 0; i < 12; i += 1) {
      const digest = keccak256(toHex(`digest-${i}`));
      const signer = keys[i % 4]!;
      const claimed = i % 3 === 0 ? keys[(i + 1) % 4]! : signer;
      items.push([digest, (await signer.sign({ hash: digest })) as Hex, claimed.address]);
    }
    const expected = items.map((_, i) => i % 3 !== 0);
    const checks = new SignatureChecks();
    try {
      expect(await checks.verifyAll(items.slice(0, 3))).toEqual(expected.slice(0, 3));
      expect(await checks.verifyAll(items)).toEqual(expected); // starts the worker, answers inline meanwhile
      const deadline = Date.now() + 60_000;
      while (!(checks as unknown as { ready: boolean }).ready && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(await checks.verifyAll(items)).toEqual(expected); // on the worker
    } finally {
      await checks.close();
    }
  });
});
