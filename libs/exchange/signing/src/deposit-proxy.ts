import { concat, getAddress, type Hex, keccak256, slice, toBytes } from 'viem';

const DEPOSIT_PROXY_TAG = 'paper-deposit-proxy';

/**
 * The wallet's personal deposit proxy address: the first 20 bytes of
 * keccak256("paper-deposit-proxy" ++ wallet bytes). Deterministic, so anyone can show it before the
 * account exists. Returned in lower case, as the exchange stores addresses.
 */
export function depositProxyAddress(wallet: string): Hex {
  const walletBytes = toBytes(getAddress(wallet));
  const digest = keccak256(concat([toBytes(DEPOSIT_PROXY_TAG), walletBytes]));
  return slice(digest, 0, 20).toLowerCase() as Hex;
}
