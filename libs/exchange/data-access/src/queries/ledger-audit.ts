import { type QueryExecutor, queryRows } from './chain-balances';

/**
 * Checks that the books balance: every ledger transaction sums to zero; each account's cached free,
 * locked, queued and staking-reward balances equal the sums of its ledger buckets; the protocol's LP,
 * parked losses and pending fees equal theirs; and the payout queue equals both its ledger liability and
 * the traders' queued claims (queued balances plus queued-backed margin of open positions).
 * Returns one line per mismatch; an empty list means the books balance.
 */
export async function auditLedger(db: QueryExecutor): Promise<string[]> {
  const problems: string[] = [];
  const unbalanced = await queryRows(db, `SELECT tx_id FROM exchange.ledger_entries GROUP BY tx_id HAVING sum(amount_micro) <> 0`);
  if (unbalanced.length > 0) problems.push(`${unbalanced.length} unbalanced ledger transactions`);
  const accounts = await queryRows<Record<string, string>>(db, `
    WITH sums AS (
      SELECT owner,
             coalesce(sum(amount_micro) FILTER (WHERE bucket = 'free'), 0) AS l_free,
             coalesce(sum(amount_micro) FILTER (WHERE bucket = 'locked'), 0) AS l_locked,
             coalesce(sum(amount_micro) FILTER (WHERE bucket = 'queued'), 0) AS l_queued,
             coalesce(sum(amount_micro) FILTER (WHERE bucket = 'stakers'), 0) AS l_stakers
        FROM exchange.ledger_entries WHERE owner <> 'protocol' GROUP BY owner)
    SELECT a.wallet, a.free_micro, a.locked_micro, a.queued_micro, a.staking_rewards_micro,
           coalesce(s.l_free, 0) AS l_free, coalesce(s.l_locked, 0) AS l_locked, coalesce(s.l_queued, 0) AS l_queued, coalesce(s.l_stakers, 0) AS l_stakers
      FROM exchange.accounts a LEFT JOIN sums s ON s.owner = a.wallet`);
  const pairs = [['free_micro', 'l_free'], ['locked_micro', 'l_locked'], ['queued_micro', 'l_queued'], ['staking_rewards_micro', 'l_stakers']] as const;
  for (const a of accounts) {
    for (const [column, ledger] of pairs) {
      if (String(a[column]) !== String(a[ledger])) problems.push(`${a['wallet']} ${column} ${a[column]} but ledger ${a[ledger]}`);
    }
  }
  const [p] = await queryRows<Record<string, string>>(db, `
    SELECT s.lp_micro, s.parked_micro, s.fees_pending_micro,
           (SELECT coalesce(sum(amount_micro), 0) FROM exchange.ledger_entries WHERE owner = 'protocol' AND bucket = 'lp') AS l_lp,
           (SELECT coalesce(sum(amount_micro), 0) FROM exchange.ledger_entries WHERE owner = 'protocol' AND bucket = 'lp_parked') AS l_parked,
           (SELECT coalesce(sum(amount_micro), 0) FROM exchange.ledger_entries WHERE owner = 'protocol' AND bucket = 'fees') AS l_fees,
           (SELECT coalesce(-sum(amount_micro), 0) FROM exchange.ledger_entries WHERE owner = 'protocol' AND bucket = 'payout_queue') AS l_owed,
           (SELECT coalesce(sum(remaining_micro), 0) FROM exchange.payout_queue WHERE paid_at IS NULL) AS owed,
           (SELECT coalesce(sum(queued_micro), 0) FROM exchange.accounts)
             + (SELECT coalesce(sum(margin_queued_micro), 0) FROM exchange.positions WHERE status = 'open') AS claims
      FROM exchange.protocol_state s`);
  const check = (what: string, cached: string, ledger: string) => {
    if (String(cached) !== String(ledger)) problems.push(`${what} ${cached} but ledger ${ledger}`);
  };
  check('lp', p!['lp_micro']!, p!['l_lp']!);
  check('parked', p!['parked_micro']!, p!['l_parked']!);
  check('pending fees', p!['fees_pending_micro']!, p!['l_fees']!);
  check('payout queue', p!['owed']!, p!['l_owed']!);
  check('payout queue vs queued claims', p!['owed']!, p!['claims']!);
  return problems;
}
