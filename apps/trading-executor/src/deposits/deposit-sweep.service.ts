import { Injectable, Logger } from '@nestjs/common';
import { evaluateDeposit, microToUsdc, PROTOCOL_OWNER, transfer } from '@paper/exchange';
import { appendEvents, exchangeEvent, walletsWithDepositsWaiting } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import { lockAccounts } from '../database/account-balances';
import { writeLedger } from '../database/ledger-writer';
import { inTransaction, type Sql, sqlExecutor } from '../database/sql-transaction';

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
    const { rows } = await sql<{ address: string; amount: string }>(
      `SELECT c.address, c.amount FROM exchange.chain_balances c JOIN exchange.accounts a ON a.deposit_address = c.address
        WHERE a.wallet = $1 AND c.asset = 'USDC' FOR UPDATE OF c`,
      [wallet],
    );
    const proxy = rows[0]?.address;
    const amountMicro = BigInt(rows[0]?.amount ?? '0');
    if (!proxy || amountMicro <= 0n) return null;
    const decision = evaluateDeposit(amountMicro, account.activated);
    if (!decision.accepted) {
      const { rows: last } = await sql<{ status: string; amount_micro: string }>(
        `SELECT status, amount_micro FROM exchange.deposits WHERE proxy_address = $1 ORDER BY created_at DESC, id DESC LIMIT 1`,
        [proxy],
      );
      if (last[0]?.status === 'refused' && BigInt(last[0].amount_micro) === amountMicro) return null;
      await sql(
        `INSERT INTO exchange.deposits (wallet, proxy_address, amount_micro, fee_micro, status, reason) VALUES ($1, $2, $3, 0, 'refused', $4)`,
        [wallet, proxy, amountMicro, decision.message],
      );
      return { wallet, status: 'refused', amountMicro, feeMicro: 0n, reason: decision.reason };
    }
    await sql(
      `UPDATE exchange.chain_balances SET amount = amount - $2, updated_at = now() WHERE address = $1 AND asset = 'USDC'`,
      [proxy, amountMicro],
    );
    const { rows: dep } = await sql<{ id: string }>(
      `INSERT INTO exchange.deposits (wallet, proxy_address, amount_micro, fee_micro, status) VALUES ($1, $2, $3, $4, 'credited') RETURNING id`,
      [wallet, proxy, amountMicro, decision.feeMicro],
    );
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
      { lines, reason: decision.feeMicro > 0n ? 'deposit_activation' : 'deposit', ref: `deposit:${dep[0]!.id}` },
    ]);
    await sql(
      `UPDATE exchange.accounts SET free_micro = free_micro + $2, activated = true, last_active_at = now() WHERE wallet = $1`,
      [wallet, decision.creditMicro],
    );
    await appendEvents(sqlExecutor(sql), [
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
