import type { PoolClient } from 'pg';
import type { SeedBook } from './seed-book';
import { MARKET_NAMES } from '@paper/markets';

const CHUNK = 5000;

/** Inserts rows column-wise through unnest, in chunks. `columns` maps column name to its SQL array type. */
async function insert<T>(
  db: PoolClient,
  table: string,
  columns: Record<string, string>,
  rows: readonly T[],
  values: (row: T) => unknown[],
): Promise<void> {
  const names = Object.keys(columns);
  const types = Object.values(columns);
  for (let start = 0; start < rows.length; start += CHUNK) {
    const cols: unknown[][] = names.map(() => []);
    for (const row of rows.slice(start, start + CHUNK))
      values(row).forEach((v, i) => cols[i]!.push(typeof v === 'bigint' ? v.toString() : v));
    const params = types.map((t, i) => `$${i + 1}::${t}[]`).join(', ');
    await db.query(`INSERT INTO exchange.${table} (${names.join(', ')}) SELECT * FROM unnest(${params})`, cols);
  }
}

/** Writes the simulated books (one transaction, by the caller) and aligns the id sequences. */
export async function writeSeed(
  db: PoolClient,
  book: SeedBook,
  chain: Map<string, { usdc: bigint; eth: bigint }>,
): Promise<void> {
  const wallets = [...book.wallets.values()];
  await insert(
    db,
    'accounts',
    {
      wallet: 'varchar',
      display_name: 'varchar',
      deposit_address: 'varchar',
      activated: 'boolean',
      free_micro: 'bigint',
      locked_micro: 'bigint',
      queued_micro: 'bigint',
      paper_micro: 'bigint',
      staked_micro: 'bigint',
      realized_pnl_micro: 'bigint',
      total_volume_micro: 'bigint',
      staking_rewards_micro: 'bigint',
      last_active_at: 'timestamptz',
      created_at: 'timestamptz',
    },
    wallets,
    (w) => [
      w.address,
      w.displayName,
      w.depositAddress,
      w.activated,
      w.free,
      w.locked,
      w.queued,
      w.paper,
      w.staked,
      w.realized,
      w.volume,
      w.stakingRewards,
      w.lastActiveAt,
      w.createdAt,
    ],
  );
  await insert(
    db,
    'positions',
    {
      id: 'bigint',
      wallet: 'varchar',
      market: 'varchar',
      side: 'varchar',
      margin_micro: 'bigint',
      leverage: 'integer',
      notional_micro: 'bigint',
      entry_price: 'bigint',
      bust_price: 'bigint',
      status: 'varchar',
      exit_price: 'bigint',
      pnl_micro: 'bigint',
      fee_micro: 'bigint',
      queued_micro: 'bigint',
      reward_minted_micro: 'bigint',
      margin_queued_micro: 'bigint',
      opened_at: 'timestamptz',
      closed_at: 'timestamptz',
    },
    book.positions,
    (p) => [
      p.id,
      p.wallet,
      p.market,
      p.side,
      p.margin,
      p.leverage,
      p.notional,
      p.entry,
      p.bust,
      p.status,
      p.exit,
      p.pnl,
      p.fee,
      p.queued,
      p.minted,
      p.marginQueued,
      p.openedAt,
      p.closedAt,
    ],
  );
  await insert(
    db,
    'payout_queue',
    {
      id: 'bigint',
      wallet: 'varchar',
      position_id: 'bigint',
      original_micro: 'bigint',
      remaining_micro: 'bigint',
      fee_original_micro: 'bigint',
      fee_remaining_micro: 'bigint',
      created_at: 'timestamptz',
      paid_at: 'timestamptz',
    },
    book.queue,
    (q) => [
      q.id,
      q.wallet,
      q.positionId,
      q.original,
      q.remaining,
      q.feeOriginal,
      q.feeRemaining,
      q.createdAt,
      q.paidAt,
    ],
  );
  await insert(
    db,
    'ledger_entries',
    {
      tx_id: 'uuid',
      owner: 'varchar',
      bucket: 'varchar',
      amount_micro: 'bigint',
      reason: 'varchar',
      ref: 'varchar',
      created_at: 'timestamptz',
    },
    book.ledger,
    (l) => [l.txId, l.owner, l.bucket, l.amount, l.reason, l.ref, l.at],
  );
  await insert(
    db,
    'deposits',
    {
      wallet: 'varchar',
      proxy_address: 'varchar',
      amount_micro: 'bigint',
      fee_micro: 'bigint',
      status: 'varchar',
      created_at: 'timestamptz',
    },
    book.deposits,
    (d) => [d.wallet, d.proxy, d.amount, d.fee, 'credited', d.at],
  );
  await insert(
    db,
    'equity_snapshots',
    {
      wallet: 'varchar',
      taken_at: 'timestamptz',
      equity_micro: 'bigint',
      free_micro: 'bigint',
      locked_micro: 'bigint',
      unrealized_pnl_micro: 'bigint',
    },
    book.snapshots,
    (s) => [s.wallet, s.at, s.equity, s.free, s.locked, s.unrealized],
  );
  await insert(
    db,
    'daily_stats',
    {
      day: 'date',
      volume_micro: 'bigint',
      trader_pnl_micro: 'bigint',
      fees_micro: 'bigint',
      liquidations: 'integer',
      liquidated_micro: 'bigint',
      users: 'integer',
      new_users: 'integer',
      trades: 'integer',
      lp_micro: 'bigint',
    },
    [...book.days],
    ([day, d]) => [
      day,
      d.volume,
      d.pnl,
      d.fees,
      d.liquidations,
      d.liquidated,
      d.users.size,
      d.newUsers,
      d.trades,
      d.lp,
    ],
  );
  const balances = [...chain]
    .flatMap(
      ([address, b]) =>
        [
          [address, 'USDC', b.usdc],
          [address, 'ETH', b.eth],
        ] as const,
    )
    .filter(([, , v]) => v > 0n);
  await insert(db, 'chain_balances', { address: 'varchar', asset: 'varchar', amount: 'numeric' }, balances, (b) => [
    ...b,
  ]);

  const open = book.positions.filter((p) => p.status === 'open');
  const oi = (market: string, side: string) =>
    open
      .filter((p) => p.market === market && p.side === side)
      .reduce((s, p) => s + p.notional, 0n)
      .toString();
  for (const market of MARKET_NAMES) {
    await db.query(`UPDATE exchange.markets SET long_oi_micro = $2, short_oi_micro = $3 WHERE market = $1`, [
      market,
      oi(market, 'long'),
      oi(market, 'short'),
    ]);
  }
  const volume = book.positions.reduce((s, p) => s + p.notional, 0n);
  await db.query(
    `UPDATE exchange.protocol_state SET lp_micro = $1, parked_micro = $2, reward_high_water_micro = $3, fees_pending_micro = $4, fees_micro = $5,
            paper_supply_micro = $6, swept_to_stakers_micro = $7, lifetime_volume_micro = $8, staking_reserve_micro = $9, updated_at = now() WHERE id = 1`,
    [
      book.pool.lpMicro,
      book.pool.parkedMicro,
      book.pool.highWaterMicro,
      book.pool.feesPendingMicro,
      book.feesCollected,
      book.paperMinted,
      book.sweptToStakers,
      volume,
      book.pool.stakingReserveMicro,
    ].map(String),
  );
  await db.query(`SELECT setval('exchange.positions_id_seq', (SELECT coalesce(max(id), 1) FROM exchange.positions))`);
  await db.query(
    `SELECT setval('exchange.payout_queue_id_seq', (SELECT coalesce(max(id), 1) FROM exchange.payout_queue))`,
  );
}
