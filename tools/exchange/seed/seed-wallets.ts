import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Prng } from './prng';

const FIRST = [
  'satoshi',
  'degen',
  'alpha',
  'moon',
  'whale',
  'tiny',
  'quant',
  'lazy',
  'based',
  'night',
  'zen',
  'hodl',
  'turbo',
  'cosmic',
  'paper',
  'rekt',
  'wagmi',
  'ape',
  'silent',
  'rapid',
];
const SECOND = [
  'trader',
  'hands',
  'shark',
  'owl',
  'fox',
  'bull',
  'bear',
  'wizard',
  'sniper',
  'monk',
  'pilot',
  'panda',
  'ninja',
  'farmer',
  'surfer',
  'baron',
];

export interface SeedWallet {
  index: number;
  address: string;
  displayName: string | null;
}

/** Deterministic demo wallets (keys derived from a fixed label, never used to sign anything real). */
export function seedWallets(count: number, seed: number): SeedWallet[] {
  const rng = new Prng(seed ^ 0x5eed);
  return Array.from({ length: count }, (_, index) => {
    const key = keccak256(toHex(`paper-perps-demo-wallet-${seed}-${index}`));
    const address = privateKeyToAccount(key).address.toLowerCase();
    const displayName = rng.chance(0.45)
      ? `${rng.pick(FIRST)}_${rng.pick(SECOND)}${rng.chance(0.5) ? rng.int(1, 99) : ''}`
      : null;
    return { index, address, displayName };
  });
}
