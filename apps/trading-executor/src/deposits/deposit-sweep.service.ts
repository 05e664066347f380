import { Injectable, Logger } from '@nestjs/common';
import { evaluateDeposit, microToUsdc, PROTOCOL_OWNER, transfer } from '@paper/exchange';
import {
  appendEvents,
  creditDeposit,
  exchangeEvent,
  latestDeposit,
  lockAccounts,
  lockDepositProxy,
  recordRefusedDeposit,
  walletsWithDepositsWaiting,
  writeLedger,
} from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import { inTransaction, type Sql } from '../database/sql-transaction';

export interface SweptDeposit {
  wallet: string;
  status: 'credited' | 'refused';
  amountMicro: bigint;
  feeMicro: bigint;
  reason: string | null;
}

/**
 * Moves USDC found at deposit proxy addresses into the owners' free balances. At least 10 USDC; the
 * first deposit pays the 1 USDC activation fee. Less than the minimum is refused (recorded once per
 * amount in exchange.deposits) and stays at the proxy until the total there reaches the minimum.
 */
@Injectable()
export class DepositSweepService {
  private readonly logger = new Logger('Deposits');

  constructor(private readonly dataSource: DataSource) {}

  /** Sweeps every proxy holding USDC (or only `wallet`'s). */
  async sweep(wallet?: string): Promise<SweptDeposit[]> {
    const found = await walletsWithDepositsWaiting(this.dataSource, wallet);
    const results: SweptDeposit[] = [];
    for (const w of found) {
      const swept = await inTransaction(this.dataSource, (sql) => this.sweepOne(sql, w));
      if (swept) results.push(swept);
    }
    return results;
  }

  private async sweepOne(sql: Sql, wallet: string): Promise<SweptDeposit | null> {
    const account = (await lockAccounts(sql, [wallet])).get(wallet);
    if (!account) return null;
    const proxy = await lockDepositProxy(sql, wallet);
    const amountMicro = proxy?.amountMicro ?? 0n;
    if (!proxy || amountMicro <= 0n) return null;
    const decision = evaluateDeposit(amountMicro, account.activated);
    if (!decision.accepted) {
      const last = await latestDeposit(sql, proxy.address);
      if (last?.status === 'refused' && last.amountMicro === amountMicro) return null;
      await recordRefusedDeposit(sql, { wallet, proxy: proxy.address, amountMicro, message: decision.message });
      return { wallet, status: 'refused', amountMicro, feeMicro: 0n, reason: decision.reason };
    }
    const depositId = await creditDeposit(sql, {
      wallet,
      proxy: proxy.address,
      amountMicro,
      feeMicro: decision.feeMicro,
      creditMicro: decision.creditMicro,
    });
    const lines = [
      ...transfer(
        { owner: PROTOCOL_OWNER, bucket: 'deposits' },
        { owner: wallet, bucket: 'free' },
        decision.creditMicro,
      ),
      ...transfer(
        { owner: PROTOCOL_OWNER, bucket: 'deposits' },
        { owner: PROTOCOL_OWNER, bucket: 'activation_fees' },
        decision.feeMicro,
      ),
    ];
    await writeLedger(sql, [
      { lines, reason: decision.feeMicro > 0n ? 'deposit_activation' : 'deposit', ref: `deposit:${depositId}` },
    ]);
    await appendEvents(sql, [
      exchangeEvent(
        'deposit.credited',
        { amountUsd: Number(microToUsdc(amountMicro)), feeUsd: Number(microToUsdc(decision.feeMicro)), txHash: null },
        { wallet },
      ),
    ]);
    this.logger.log(
      `credited ${microToUsdc(decision.creditMicro)} USDC to ${wallet} (fee ${microToUsdc(decision.feeMicro)})`,
    );
    return { wallet, status: 'credited', amountMicro, feeMicro: decision.feeMicro, reason: null };
  }
}
