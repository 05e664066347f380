import type { IntentResult } from '@paper/contracts';
import { queryRow, queryRows } from '@paper/sql-rows';
import type { Sql } from '../../database/sql-transaction';
import { type IntentOutcome, refused } from '../intent-message';
import type { CancelTargetRow, ClaimedTargetRow } from './batch-rows';
import type { AdmittedIntent, BatchState, CancelPayload } from './batch-state';

/** What a cancel intent may cancel: the batch's intents that have not run yet, by id. */
export type PendingTargets = Map<string, { wallet: string; kind: IntentResult['kind'] }>;

/**
 * Cancels a queued intent of the same wallet. A target in the same batch that has not run is dropped
 * from it; any other target is claimed the way a batch claims (`FOR UPDATE SKIP LOCKED`): a target
 * another batch holds is running (`intent_executing`), and a claimed one is recorded `cancelled` with
 * the batch's writes, so a cancellation and an execution of the same intent can never both commit.
 */
export async function cancelStep(
  sql: Sql,
  state: BatchState,
  intent: AdmittedIntent<CancelPayload>,
  pending: PendingTargets,
): Promise<IntentOutcome> {
  const target = intent.payload.message.intentId.toLowerCase();
  const notFound = refused(
    'intent_not_found',
    `Intent ${target} is not a queued intent of this wallet; check the id with get_intent_status.`,
  );
  if (target === intent.id) return refused('intent_not_cancellable', 'An intent cannot cancel itself.');

  let kind: IntentResult['kind'];
  const inBatch = pending.get(target);
  if (inBatch) {
    if (inBatch.wallet !== intent.wallet) return notFound;
    pending.delete(target);
    kind = inBatch.kind;
  } else {
    const done = state.results.get(target);
    if (done) {
      if (done.wallet !== intent.wallet) return notFound;
      return refused(
        'intent_not_cancellable',
        `Intent ${target} is no longer queued (it was ${done.status}); there is nothing to cancel.`,
      );
    }
    const row = await queryRow<CancelTargetRow>(
      sql,
      `SELECT wallet, kind, status FROM exchange.intents WHERE id = $1`,
      [target],
    );
    if (!row || row.wallet !== intent.wallet) return notFound;
    if (row.status !== 'queued') {
      return refused(
        'intent_not_cancellable',
        `Intent ${target} is no longer queued (it was ${row.status}); there is nothing to cancel.`,
      );
    }
    const claimed = await queryRows<ClaimedTargetRow>(
      sql,
      `SELECT id FROM exchange.intents WHERE id = $1 AND status = 'queued' FOR UPDATE SKIP LOCKED`,
      [target],
    );
    if (claimed.length === 0) {
      return refused(
        'intent_executing',
        `Intent ${target} is being executed right now and can no longer be cancelled; check its status in a moment.`,
      );
    }
    kind = row.kind;
  }
  state.results.set(target, {
    intentId: target,
    kind,
    wallet: intent.wallet,
    status: 'cancelled',
    reason: 'cancelled_by_owner',
    message: `Cancelled by intent ${intent.id} before it ran; nothing was executed.`,
    executedAt: state.now.toISOString(),
  });
  return {
    status: 'executed',
    reason: null,
    message: `Cancelled intent ${target}; it will not run.`,
    cancelledIntentId: target,
  };
}
