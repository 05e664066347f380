import { concat, keccak256, toBytes } from 'viem';
import { depositProxyAddress } from './deposit-proxy';

describe('depositProxyAddress', () => {
  const wallet = '0x52908400098527886E0F7030069857D2E4169EE7';

  it('is the first 20 bytes of keccak256("paper-deposit-proxy" ++ wallet)', () => {
    const expected = keccak256(concat([toBytes('paper-deposit-proxy'), toBytes(wallet.toLowerCase())])).slice(0, 42);
    expect(depositProxyAddress(wallet)).toBe(expected);
  });

  it('does not depend on the address case and differs between wallets', () => {
    expect(depositProxyAddress(wallet.toLowerCase())).toBe(depositProxyAddress(wallet));
    expect(depositProxyAddress('0x8617E340B3D01FA5F11F306F4090FD50E238070D')).not.toBe(depositProxyAddress(wallet));
    expect(depositProxyAddress(wallet)).toMatch(/^0x[0-9a-f]{40}$/);
  });
});
