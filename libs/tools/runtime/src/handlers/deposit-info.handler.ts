import { Inject, Injectable } from '@nestjs/common';
import { GET_DEPOSIT_INFO, type ToolData, type ToolInput } from '@paper/contracts';
import { chainBalances, depositAccount } from '@paper/exchange-data';
import { depositProxyAddress } from '@paper/exchange-signing';
import { DataSource } from 'typeorm';
import type { ToolContext } from '../context/tool-context';
import { usd, usdText } from '../money/money-format';
import { resolveWallet, shortAddress, type ToolHandler, type ToolOutcome } from './tool-handler';

/** Deposit rules of the exchange (micro-USDC). */
export const MINIMUM_DEPOSIT_MICRO = 10_000_000n;
export const ACTIVATION_FEE_MICRO = 1_000_000n;
export const MINIMUM_WITHDRAWAL_MICRO = 10_000_000n;

const WEI_DECIMALS = 18;

@Injectable()
export class DepositInfoHandler implements ToolHandler<typeof GET_DEPOSIT_INFO> {
  readonly tool = GET_DEPOSIT_INFO;

  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async run(
    input: ToolInput<typeof GET_DEPOSIT_INFO>,
    ctx: ToolContext,
  ): Promise<ToolOutcome<ToolData<typeof GET_DEPOSIT_INFO>>> {
    const wallet = resolveWallet(this.tool, input.wallet, ctx);
    const account = await depositAccount(this.db, wallet);
    const depositAddress = account?.depositAddress ?? depositProxyAddress(wallet);
    const [own, proxy] = await Promise.all([chainBalances(this.db, wallet), chainBalances(this.db, depositAddress)]);
    const activated = account?.activated === true;
    const usdc = own.usdcMicro;
    const waiting = proxy.usdcMicro;
    const gasWei = own.ethWei;
    const minimum = MINIMUM_DEPOSIT_MICRO + (activated ? 0n : ACTIVATION_FEE_MICRO);
    const instructions =
      `Send USDC to ${depositAddress} (your personal deposit address on the paper chain). The minimum deposit is ` +
      `${usdText(MINIMUM_DEPOSIT_MICRO)}` +
      (activated
        ? '.'
        : `; the first deposit also pays a one-time ${usdText(ACTIVATION_FEE_MICRO)} activation fee, so send at ` +
          `least ${usdText(minimum)}.`) +
      ` Deposits are credited automatically within seconds. Withdrawals (at least ` +
      `${usdText(MINIMUM_WITHDRAWAL_MICRO)}) go only back to this wallet.`;
    return {
      summary:
        `Deposit USDC for ${shortAddress(wallet)} to ${depositAddress}: at least ` +
        `${usdText(minimum)}${activated ? '' : ' including the one-time activation fee'}. ` +
        `On chain the wallet holds ${usdText(usdc)} and ${weiText(gasWei)} ETH.`,
      data: {
        wallet,
        mode: 'paper' as const,
        depositAddress,
        minimumDepositUsd: usd(MINIMUM_DEPOSIT_MICRO),
        activationFeeUsd: usd(ACTIVATION_FEE_MICRO),
        activated,
        minimumWithdrawalUsd: usd(MINIMUM_WITHDRAWAL_MICRO),
        chainBalances: { usdc: usd(usdc), gas: Number(weiText(gasWei)), depositAddressUsdc: usd(waiting) },
        instructions,
      },
    };
  }
}

function weiText(wei: bigint): string {
  const digits = wei.toString().padStart(WEI_DECIMALS + 1, '0');
  const frac = digits.slice(-WEI_DECIMALS).replace(/0+$/, '');
  return `${digits.slice(0, -WEI_DECIMALS)}${frac ? `.${frac}` : ''}`;
}
