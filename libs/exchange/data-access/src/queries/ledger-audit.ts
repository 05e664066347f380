import { type QueryExecutor, queryRows } from '@paper/sql-rows';
import { z } from 'zod';
import { decimal, int8 } from './row-fields';

/**
 * Checks that the books balance: every ledger transaction sums to zero; each account's cached free,
 * locked, queued and unclaimed staking-reward balances equal the sums of its ledger buckets; the
 * protocol's LP, parked losses, pending fees and staking reserve equal theirs; the payout queue equals
 * its ledger liability (traders' part plus queued fees); the queued fees equal their ledger bucket; and
 * the traders' part equals their queued claims (queued balances plus queued-backed margin of open
 * positions). Returns one line per mismatch; an empty list means the books balance.
 */
export const UnbalancedTxRow = z.object({ tx_id: z.string() });
export type UnbalancedTxRow = z.infer<typeof UnbalancedTxRow>;

export const AccountAuditRow = z.object({
  wallet: z.string(),
  free_micro: int8,
  locked_micro: int8,
  queued_micro: int8,
  unclaimed_rewards: int8,
  l_free: decimal,
  l_locked: decimal,
  l_queued: decimal,
  l_stakers: decimal,
});
export type AccountAuditRow = z.infer<typeof AccountAuditRow>;

export const ProtocolAuditRow = z.object({
  lp_micro: int8,
  parked_micro: int8,
  fees_pending_micro: int8,
  staking_reserve_micro: int8,
  l_lp: decimal,
  l_parked: decimal,
  l_fees: decimal,
  l_reserve: decimal,
  l_fees_queued: decimal,
  l_owed: decimal,
  owed: decimal,
  fees_owed: decimal,
  owed_total: decimal,
  claims: decimal,
});
export type ProtocolAuditRow = z.infer<typeof ProtocolAuditRow>;

export async function auditLedger(db: QueryExecutor): Promise<string[]> {
  const problems: string[] = [];
  const unbalanced = await queryRows<UnbalancedTxRow>(
    db,
    `SELECT tx_id FROM exchange.ledger_entries GROUP BY tx_id HAVING sum(amount_micro) <> 0`,
  );
  if (unbalanced.length > 0) problems.push(`${unbalanced.length} unbalanced ledger transactions`);
  const accounts = await queryRows<AccountAuditRow>(
    db,
    `
    WITH sums AS (
      SELECT owner,
             coalesce(sum(amount_micro) FILTER (WHERE bucket = 'free'), 0) AS l_free,
             coalesce(sum(amount_micro) FILTER (WHERE bucket = 'locked'), 0) AS l_locked,
             coalesce(sum(amount_micro) FILTER (WHERE bucket = 'queued'), 0) AS l_queued,
             coalesce(sum(amount_micro) FILTER (WHERE bucket = 'stakers'), 0) AS l_stakers
        FROM exchange.ledger_entries WHERE owner <> 'protocol' GROUP BY owner)
    SELECT a.wallet, a.free_micro, a.locked_micro, a.queued_micro,
           a.staking_rewards_micro - a.staking_claimed_micro AS unclaimed_rewards,
           coalesce(s.l_free, 0) AS l_free, coalesce(s.l_locked, 0) AS l_locked, coalesce(s.l_queued, 0) AS l_queued,
           coalesce(s.l_stakers, 0) AS l_stakers
      FROM exchange.accounts a LEFT JOIN sums s ON s.owner = a.wallet`,
  );
  const pairs = [
    ['free_micro', 'l_free'],
    ['locked_micro', 'l_locked'],
    ['queued_micro', 'l_queued'],
    ['unclaimed_rewards', 'l_stakers'],
  ] as const;
  for (const a of accounts) {
    for (const [column, ledger] of pairs) {
      if (String(a[column]) !== String(a[ledger]))
        problems.push(`${a.wallet} ${column} ${a[column]} but ledger ${a[ledger]}`);
    }
  }
  const [p] = await queryRows<ProtocolAuditRow>(
    db,
    `
    WITH buckets AS (
      SELECT bucket, sum(amount_micro) AS total FROM exchange.ledger_entries WHERE owner = 'protocol' GROUP BY bucket),
    queue AS (
      SELECT coalesce(sum(remaining_micro), 0) AS owed, coalesce(sum(fee_remaining_micro), 0) AS fees_owed
        FROM exchange.payout_queue WHERE paid_at IS NULL)
    SELECT s.lp_micro, s.parked_micro, s.fees_pending_micro, s.staking_reserve_micro,
           coalesce((SELECT total FROM buckets WHERE bucket = 'lp'), 0) AS l_lp,
           coalesce((SELECT total FROM buckets WHERE bucket = 'lp_parked'), 0) AS l_parked,
           coalesce((SELECT total FROM buckets WHERE bucket = 'fees'), 0) AS l_fees,
           coalesce((SELECT total FROM buckets WHERE bucket = 'staking_reserve'), 0) AS l_reserve,
           coalesce((SELECT total FROM buckets WHERE bucket = 'fees_queued'), 0) AS l_fees_queued,
           coalesce((SELECT -total FROM buckets WHERE bucket = 'payout_queue'), 0) AS l_owed,
           queue.owed, queue.fees_owed, queue.owed + queue.fees_owed AS owed_total,
           (SELECT coalesce(sum(queued_micro), 0) FROM exchange.accounts)
             + (SELECT coalesce(sum(margin_queued_micro), 0) FROM exchange.positions WHERE status = 'open') AS claims
      FROM exchange.protocol_state s, queue`,
  );
  const check = (what: string, cached: string, ledger: string) => {
    if (String(cached) !== String(ledger)) problems.push(`${what} ${cached} but ledger ${ledger}`);
  };
  check('lp', p!['lp_micro']!, p!['l_lp']!);
  check('parked', p!['parked_micro']!, p!['l_parked']!);
  check('pending fees', p!['fees_pending_micro']!, p!['l_fees']!);
  check('staking reserve', p!['staking_reserve_micro']!, p!['l_reserve']!);
  check('payout queue', p!['owed_total']!, p!['l_owed']!);
  check('queued fees', p!['fees_owed']!, p!['l_fees_queued']!);
  if (String(p!['owed']) !== String(p!['claims']))
    problems.push(`payout queue (traders' part) ${p!['owed']} but queued claims ${p!['claims']}`);
  return problems;
}
