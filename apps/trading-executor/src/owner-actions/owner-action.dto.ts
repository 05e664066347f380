import { decimalToScaled } from '@paper/exchange';
import { newOwnerAction, type OwnerActionMessage } from '@paper/exchange-signing';
import { z } from 'zod';

const wallet = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 40-hex-digit address');
const amount = z
  .union([z.string(), z.number()], { error: 'must be a positive decimal amount' })
  .transform((v) => String(v))
  .refine(
    (v) => /^\d+(\.\d{1,6})?$/.test(v) && Number(v) > 0 && Number(v) <= 1e12,
    'must be a positive decimal amount with at most 6 decimals',
  );

/**
 * POST /dev/owner-actions/typed-data: the EIP-712 typed data of an owner action for the wallet to sign
 * (eth_signTypedData_v4). `usdc` for a withdrawal (to the wallet itself unless `to` says otherwise, which
 * the executor refuses), `paper` for stake and unstake.
 */
export const prepareOwnerActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('withdraw'), wallet, usdc: amount, to: wallet.optional() }).strict(),
  z.object({ kind: z.literal('stake'), wallet, paper: amount }).strict(),
  z.object({ kind: z.literal('unstake'), wallet, paper: amount }).strict(),
  z.object({ kind: z.literal('claim_rewards'), wallet }).strict(),
]);

/** The owner action described by a prepare request, with a fresh nonce and an expiry 50 minutes ahead. */
export function ownerActionFromRequest(input: z.infer<typeof prepareOwnerActionSchema>): OwnerActionMessage {
  switch (input.kind) {
    case 'withdraw':
      return newOwnerAction('withdraw', input.wallet, { amountMicro: decimalToScaled(input.usdc, 6), to: input.to });
    case 'stake':
    case 'unstake':
      return newOwnerAction(input.kind, input.wallet, { amountMicro: decimalToScaled(input.paper, 6) });
    case 'claim_rewards':
      return newOwnerAction('claim_rewards', input.wallet);
  }
}
