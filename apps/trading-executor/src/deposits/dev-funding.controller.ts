import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { toolSuccess } from '@paper/contracts';
import { decimalToScaled, formatUsdc, microToUsdc, scaledToDecimal, usdcToMicro } from '@paper/exchange';
import { chainBalances, creditChainBalance, ensureAccount, transferChainBalance } from '@paper/exchange-data';
import { depositProxyAddress } from '@paper/exchange-signing';
import { DataSource } from 'typeorm';
import { DepositSweepService } from './deposit-sweep.service';
import { depositSchema, faucetSchema, parseBody } from './dev-funding.dto';
import { DevFundingError, DevFundingErrorCode } from './dev-funding.exception';

const balancesView = (b: { usdcMicro: bigint; ethWei: bigint }) => ({
  usdc: microToUsdc(b.usdcMicro),
  eth: scaledToDecimal(b.ethWei, 18),
});

/**
 * Paper-mode funding for development and tests (only registered when PAPER_MODE=true and NODE_ENV is
 * not production): a faucet for the simulated chain balance, and the user's transfer to the deposit proxy.
 */
@Controller('dev')
export class DevFundingController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sweeper: DepositSweepService,
  ) {}

  @Post('faucet')
  @HttpCode(200)
  async faucet(@Body() body: unknown) {
    const input = parseBody(faucetSchema, body);
    const wallet = input.wallet.toLowerCase();
    const usdcMicro = usdcToMicro(input.usdc ?? '10000');
    const ethWei = decimalToScaled(input.eth ?? '0.05', 18);
    if (usdcMicro > 0n) await creditChainBalance(this.dataSource, wallet, 'USDC', usdcMicro);
    if (ethWei > 0n) await creditChainBalance(this.dataSource, wallet, 'ETH', ethWei);
    const balances = balancesView(await chainBalances(this.dataSource, wallet));
    return toolSuccess(
      `Sent ${formatUsdc(usdcMicro)} test USDC and ${scaledToDecimal(ethWei, 18)} test ETH to ${wallet}.`,
      {
        wallet,
        credited: { usdc: microToUsdc(usdcMicro), eth: scaledToDecimal(ethWei, 18) },
        chainBalances: balances,
      },
    );
  }

  @Post('deposit')
  @HttpCode(200)
  async deposit(@Body() body: unknown) {
    const input = parseBody(depositSchema, body);
    const wallet = input.wallet.toLowerCase();
    const amount = usdcToMicro(input.usdc);
    const proxy = depositProxyAddress(wallet);
    await ensureAccount(this.dataSource, wallet, proxy);
    if (!(await transferChainBalance(this.dataSource, wallet, proxy, 'USDC', amount))) {
      const have = (await chainBalances(this.dataSource, wallet)).usdcMicro;
      throw new DevFundingError(
        DevFundingErrorCode.InsufficientChainBalance,
        `The wallet holds ${formatUsdc(have)} USDC on chain, less than ${formatUsdc(amount)}; use POST /dev/faucet ` +
          `first or deposit less.`,
      );
    }
    const swept = input.sweep ? await this.sweeper.sweep(wallet) : [];
    const sweptView = swept.map((s) => ({
      status: s.status,
      amountUsd: microToUsdc(s.amountMicro),
      feeUsd: microToUsdc(s.feeMicro),
      reason: s.reason,
    }));
    return toolSuccess(
      input.sweep
        ? `Deposited ${formatUsdc(amount)} USDC to ${proxy}; ` +
            `${swept[0]?.status === 'credited' ? 'credited to the exchange balance' : 'not credited yet'}.`
        : `Sent ${formatUsdc(amount)} USDC to the deposit address ${proxy}; the deposit sweep credits it within a ` +
            `few seconds.`,
      {
        wallet,
        depositAddress: proxy,
        amountUsd: microToUsdc(amount),
        chainBalances: balancesView(await chainBalances(this.dataSource, wallet)),
        swept: sweptView,
      },
    );
  }
}
