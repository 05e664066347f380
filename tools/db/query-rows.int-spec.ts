import type { SignedIntentPayload, SignedOwnerActionPayload } from '@paper/contracts';
import { createTestDatabase, type TestDatabase } from '@paper/dev-stack';
import * as data from '@paper/exchange-data';
import { createExchangeDataSource, exchangeEvent } from '@paper/exchange-data';
import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { z } from 'zod';
import { seedExchange } from '../exchange/seed';
import { migrate } from './migrate';

/**
 * The row types of the exchange's typed query modules hold against the real database: each query module
 * runs on a seeded exchange and every row each of its statements returns is parsed, strictly (no column
 * more or less), with the zod schema its row type is derived from. A migration that changes a column a
 * query reads, or a query whose columns drift from its row type, fails here. (The schemas are used here
 * only, never on the request or batch paths.)
 */

type RowSchema = z.ZodObject;

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;

interface Case {
  name: string;
  run: (db: QueryExecutor) => Promise<unknown>;
  /** The schema of each statement that returns rows, in order. */
  rows: RowSchema[];
}

describe('row types of the exchange query modules against the seeded database', () => {
  let database: TestDatabase;
  let ds: DataSource;
  const recorded: unknown[][] = [];
  const recorder: QueryExecutor = {
    query: async (text, params) => {
      const out = await ds.query(text, params);
      recorded.push(await queryRows({ query: async () => out }, text));
      return out;
    },
  };
  let wallet: string;
  let proxy: string;
  let openIds: string[];
  let queued: SignedIntentPayload;
  let stale: SignedIntentPayload;
  let action: SignedOwnerActionPayload;
  let sessionKey: string;
  let claim: { wallet: string };
  let pledged: string;

  beforeAll(async () => {
    database = await createTestDatabase('query_rows');
    await migrate(database.url, ['exchange'], () => undefined);
    const seeded = await seedExchange(database.url, { wallets: 40, days: 3, log: () => undefined });
    expect(seeded.seeded).toBe(true);
    ds = createExchangeDataSource({ url: database.url, poolSize: 2 });
    await ds.initialize();
    // Fixtures the seed does not write: inbox rows, a session key, events, a deposit waiting at a proxy.
    [{ wallet, deposit_address: proxy }] = await ds.query(
      `SELECT a.wallet, a.deposit_address FROM exchange.accounts a
        WHERE EXISTS (SELECT 1 FROM exchange.positions p WHERE p.wallet = a.wallet AND p.status = 'open')
          AND EXISTS (SELECT 1 FROM exchange.positions p WHERE p.wallet = a.wallet AND p.status <> 'open')
        ORDER BY a.wallet LIMIT 1`,
    );
    openIds = (
      await ds.query(`SELECT id FROM exchange.positions WHERE wallet = $1 AND status = 'open' ORDER BY id`, [wallet])
    ).map((r: { id: string }) => r.id);
    pledged = openIds[0]!;
    await ds.query(`UPDATE exchange.positions SET margin_queued_micro = 1 WHERE id = $1`, [pledged]);
    [claim] = await ds.query(
      `SELECT wallet FROM exchange.payout_queue WHERE paid_at IS NULL AND remaining_micro > 0 ORDER BY id LIMIT 1`,
    );
    sessionKey = hex(20);
    await ds.query(
      `INSERT INTO exchange.session_keys (address, wallet, guardrails, expires_at, approval_signature, label)
       VALUES ($1, $2, $3, now() + interval '1 day', $4, 'rows')`,
      [
        sessionKey,
        wallet,
        JSON.stringify({
          maxMarginPerTradeUsd: null,
          maxLeverage: null,
          maxDailyNotionalUsd: null,
          maxOpenPositions: null,
          allowedMarkets: null,
          requireConfirmation: false,
        }),
        hex(65),
      ],
    );
    const open = (expiresAt: string): SignedIntentPayload => ({
      kind: 'open',
      message: {
        wallet,
        market: 'BTC',
        side: 'long',
        marginMicro: '10000000',
        leverage: 10,
        nonce: String(Date.now()),
        expiresAt,
      },
      sessionKey,
      signature: hex(65),
      intentId: hex(32),
    });
    queued = open(String(Math.floor(Date.now() / 1000) + 3600));
    stale = open('1');
    action = {
      kind: 'stake',
      message: { wallet, amountMicro: '1', nonce: '1', expiresAt: String(Math.floor(Date.now() / 1000) + 3600) },
      signature: hex(65),
      actionId: hex(32),
    };
    await data.creditChainBalance(ds, proxy, 'USDC', 5_000_000n);
    await ds.query(
      `INSERT INTO exchange.ledger_entries (tx_id, owner, bucket, amount_micro, reason) VALUES (gen_random_uuid(), 'protocol', 'lp', 1, 'rows')`,
    );
  }, 120_000);

  afterAll(async () => {
    await ds?.destroy();
    await database?.drop();
  });

  const since = new Date(Date.now() - 40 * 86_400_000);
  const cases: Case[] = [
    // The inbox first: later cases read what these wrote.
    { name: 'acceptIntents', run: (db) => data.acceptIntents(db, [queued, stale]), rows: [data.AcceptRow] },
    { name: 'acceptOwnerAction', run: (db) => data.acceptOwnerAction(db, action), rows: [data.AcceptRow] },
    {
      name: 'expireQueuedIntents',
      run: (db) => data.expireQueuedIntents(db, 3600, { reason: 'intent_expired', message: 'expired' }),
      rows: [data.ExpiredIntentRow],
    },
    {
      name: 'readIntents',
      run: (db) => data.readIntents(db, [queued.intentId, stale.intentId]),
      rows: [data.IntentRecord],
    },
    { name: 'queuedIntentsOf', run: (db) => data.queuedIntentsOf(db, wallet), rows: [data.QueuedIntentRecord] },
    {
      name: 'readOwnerActions',
      run: (db) => data.readOwnerActions(db, [action.actionId]),
      rows: [data.OwnerActionRecord],
    },
    { name: 'queuedOwnerActionIds', run: (db) => data.queuedOwnerActionIds(db, 10), rows: [data.IdRow] },
    { name: 'inboxBacklog', run: (db) => data.inboxBacklog(db), rows: [data.InboxBacklogRow] },
    {
      name: 'lockOwnerAction',
      run: (db) => data.lockOwnerAction(db, action.actionId.toLowerCase(), false),
      rows: [data.QueuedActionRow],
    },
    { name: 'lockOwnerAccount', run: (db) => data.lockOwnerAccount(db, wallet), rows: [data.OwnerAccountRow] },
    { name: 'isSessionKeyOf', run: (db) => data.isSessionKeyOf(db, sessionKey, wallet), rows: [data.OneRow] },
    {
      name: 'sessionKeyApprovals',
      run: (db) => data.sessionKeyApprovals(db, [sessionKey]),
      rows: [data.SessionKeyApprovalRow],
    },
    { name: 'sessionKeyRows', run: (db) => data.sessionKeyRows(db, wallet), rows: [data.SessionKeyRow] },
    { name: 'sessionKeyRow', run: (db) => data.sessionKeyRow(db, wallet, sessionKey), rows: [data.SessionKeyRow] },
    {
      name: 'lockSessionKeyHolder',
      run: (db) => data.lockSessionKeyHolder(db, sessionKey),
      rows: [data.SessionKeyHolderRow],
    },
    // Accounts and balances.
    { name: 'lockAccounts', run: (db) => data.lockAccounts(db, [wallet]), rows: [data.AccountBalanceRow] },
    { name: 'accountBalances', run: (db) => data.accountBalances(db, wallet), rows: [data.AccountBalancesRow] },
    { name: 'tradeCounts', run: (db) => data.tradeCounts(db, wallet), rows: [data.TradeCountsRow] },
    { name: 'depositAccount', run: (db) => data.depositAccount(db, wallet), rows: [data.DepositAccountRow] },
    { name: 'dailyUsage', run: (db) => data.dailyUsage(db, wallet), rows: [data.DailyUsageRow] },
    { name: 'tradingAccount', run: (db) => data.tradingAccount(db, wallet), rows: [data.TradingAccountRow] },
    { name: 'equitySnapshots', run: (db) => data.equitySnapshots(db, wallet, null), rows: [data.EquitySnapshotRow] },
    { name: 'snapshotAccounts', run: (db) => data.snapshotAccounts(db, '100 years'), rows: [data.SnapshotAccountRow] },
    { name: 'leaderboardAccounts', run: (db) => data.leaderboardAccounts(db, since), rows: [data.LeaderboardRow] },
    { name: 'stakingWallets', run: (db) => data.stakingWallets(db), rows: [data.WalletRow] },
    {
      name: 'stakes',
      run: async (db) => data.stakes(db, await data.stakingWallets(ds)),
      rows: [data.StakeRow],
    },
    // Chain balances and deposits.
    {
      name: 'creditChainBalance',
      run: (db) => data.creditChainBalance(db, wallet, 'USDC', 1n),
      rows: [data.ChainAmountRow],
    },
    {
      name: 'transferChainBalance',
      run: (db) => data.transferChainBalance(db, wallet, proxy, 'USDC', 1n),
      rows: [data.ChainAmountRow],
    },
    { name: 'chainBalances', run: (db) => data.chainBalances(db, proxy), rows: [data.ChainBalanceRow] },
    { name: 'walletsWithDepositsWaiting', run: (db) => data.walletsWithDepositsWaiting(db), rows: [data.WalletRow] },
    { name: 'lockDepositProxy', run: (db) => data.lockDepositProxy(db, wallet), rows: [data.DepositProxyRow] },
    {
      name: 'creditDeposit',
      run: (db) =>
        data.creditDeposit(db, { wallet, proxy, amountMicro: 1_000_000n, feeMicro: 0n, creditMicro: 1_000_000n }),
      rows: [data.IdRow],
    },
    { name: 'latestDeposit', run: (db) => data.latestDeposit(db, proxy), rows: [data.LatestDepositRow] },
    // Positions.
    { name: 'openPositionRows', run: (db) => data.openPositionRows(db, wallet), rows: [data.RawPositionRow] },
    {
      name: 'settledPositionRows',
      run: (db) => data.settledPositionRows(db, wallet, 10),
      rows: [data.RawPositionRow],
    },
    {
      name: 'topProfitablePositionRows',
      run: (db) => data.topProfitablePositionRows(db, since, 5),
      rows: [data.RawPositionRow],
    },
    { name: 'openPositionBusts', run: (db) => data.openPositionBusts(db, 'BTC'), rows: [data.PositionBustRow] },
    { name: 'openPositionIds', run: (db) => data.openPositionIds(db, wallet), rows: [data.IdRow] },
    {
      name: 'positionStatuses',
      run: (db) => data.positionStatuses(db, wallet, openIds),
      rows: [data.PositionStatusRow],
    },
    {
      name: 'recentTradeEvents',
      run: (db) => data.recentTradeEvents(db, { market: null, wallet: null }, 20),
      rows: [data.TradeEventDbRow],
    },
    {
      name: 'openPositionsOfWallets',
      run: (db) => data.openPositionsOfWallets(db, [wallet]),
      rows: [data.RawPositionRow],
    },
    { name: 'lockPositionsOf', run: (db) => data.lockPositionsOf(db, openIds, [wallet]), rows: [data.RawPositionRow] },
    { name: 'lockOpenPositions', run: (db) => data.lockOpenPositions(db, openIds), rows: [data.RawPositionRow] },
    {
      name: 'liquidationCandidates',
      run: (db) => data.liquidationCandidates(db, 'BTC', { low: 0n, high: 2n ** 62n }, 5),
      rows: [data.LiquidationCandidateRow],
    },
    // Markets, the pool, the payout queue, the protocol.
    { name: 'marketRows', run: (db) => data.marketRows(db), rows: [data.MarketRow] },
    { name: 'marketVolumes24h', run: (db) => data.marketVolumes24h(db), rows: [data.MarketVolumeRow] },
    { name: 'lockPool', run: (db) => data.lockPool(db), rows: [data.ProtocolPoolRow, data.QueueNotEmptyRow] },
    { name: 'payoutFunds', run: (db) => data.payoutFunds(db), rows: [data.PayoutFundsRow] },
    { name: 'unpaidPayoutHead', run: (db) => data.unpaidPayoutHead(db, 10, false), rows: [data.UnpaidPayoutRow] },
    { name: 'cancelOwnClaims', run: (db) => data.cancelOwnClaims(db, claim.wallet, 1n), rows: [data.OwnClaimRow] },
    {
      name: 'releasePledgedMargin',
      run: (db) => data.releasePledgedMargin(db, wallet, 1n),
      rows: [data.PledgedMarginRow],
    },
    { name: 'protocolTotals', run: (db) => data.protocolTotals(db), rows: [data.ProtocolTotalsRow] },
    { name: 'protocolDays', run: (db) => data.protocolDays(db, 3), rows: [data.ProtocolDayRow] },
    {
      name: 'auditLedger',
      run: async (db) => expect(await data.auditLedger(db)).toContain('1 unbalanced ledger transactions'),
      rows: [data.UnbalancedTxRow, data.AccountAuditRow, data.ProtocolAuditRow],
    },
    // The event log.
    {
      name: 'appendEvents',
      run: (db) =>
        data.appendEvents(db, [
          exchangeEvent('deposit.credited', { amountUsd: 1, feeUsd: 0, txHash: null }, { wallet }),
        ]),
      rows: [data.IdRow],
    },
    { name: 'readEvents', run: (db) => data.readEvents(db, { after: '0', limit: 10 }), rows: [data.EventRow] },
    { name: 'eventLogBounds', run: (db) => data.eventLogBounds(db), rows: [data.EventLogBoundsRow] },
    { name: 'pruneEvents', run: (db) => data.pruneEvents(db, new Date(0)), rows: [data.CountRow] },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    recorded.length = 0;
    await c.run(recorder);
    const withRows = recorded.filter((rows) => rows.length > 0);
    expect(withRows).toHaveLength(c.rows.length);
    withRows.forEach((rows, i) => {
      for (const row of rows) {
        const parsed = c.rows[i]!.strict().safeParse(row);
        if (!parsed.success) throw new Error(`${c.name}, statement ${i + 1}: ${JSON.stringify(parsed.error.issues)}`);
      }
    });
  });
});
