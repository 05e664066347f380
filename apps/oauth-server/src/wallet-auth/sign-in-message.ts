import { getAddress } from 'viem';

export interface SignInMessageInput {
  publicBaseUrl: string;
  wallet: string;
  nonce: string;
  issuedAt: Date;
  expiresAt: Date;
  chainId: number;
}

/**
 * The sign-in message (EIP-4361 layout, which wallets display as a sign-in request). Signing it proves
 * ownership of the wallet; it moves no funds and grants nothing by itself.
 */
export function signInMessage(input: SignInMessageInput): string {
  const url = new URL(input.publicBaseUrl);
  return [
    `${url.host} wants you to sign in with your Ethereum account:`,
    getAddress(input.wallet),
    '',
    'Sign in to Paper Perps to manage which apps may trade for this wallet. This signature is free and moves no funds.',
    '',
    `URI: ${url.origin}`,
    'Version: 1',
    `Chain ID: ${input.chainId}`,
    `Nonce: ${input.nonce}`,
    `Issued At: ${input.issuedAt.toISOString()}`,
    `Expiration Time: ${input.expiresAt.toISOString()}`,
  ].join('\n');
}
