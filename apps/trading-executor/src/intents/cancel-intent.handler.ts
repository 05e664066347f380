import { type IntentResult, type SignedIntentPayload, signedIntentSchema } from '@paper/contracts';
import type { Job, Queue } from 'bullmq';
import type { Sql } from '../database/sql-transaction';
import { type IntentOutcome, refused, toResult } from './intent-message';
import { findIntentResult, recordIntent } from './intent-store';

type CancelPayload = Extract<SignedIntentPayload, { kind: 'cancel' }>;

const CANCELLABLE = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

export interface CancelDecision {
  outcome: IntentOutcome;
  /** The target's queue job, to remove once the cancellation is committed. */
  jobToRemove?: Job;
}

/**
 * Cancels a queued intent of the same wallet inside the caller's transaction (account locked). The
 * cancellation is recorded as the target's final status first, so even if a worker picks the target
 * up in the meantime it finds the record and does not execute; removing the queue job is clean-up.
 */
export async function cancelIntent(sql: Sql, payload: CancelPayload, wallet: string, queue: Queue, now: Date): Promise<CancelDecision> {
  const target = payload.message.intentId.toLowerCase();
  const notFound = refused('intent_not_found', `Intent ${target} is not a queued intent of this wallet; check the id with get_intent_status.`);
  if (target === payload.intentId.toLowerCase()) return { outcome: refused('intent_not_cancellable', 'An intent cannot cancel itself.') };

  const stored = await findIntentResult(sql, target, true);
  if (stored) {
    if (stored.wallet !== wallet) return { outcome: notFound };
    return { outcome: refused('intent_not_cancellable', `Intent ${target} is no longer queued (it was ${stored.status}); there is nothing to cancel.`) };
  }
  const job = await queue.getJob(target);
  const parsed = job ? signedIntentSchema.safeParse(job.data) : undefined;
  if (!job || !parsed?.success || parsed.data.message.wallet.toLowerCase() !== wallet) return { outcome: notFound };
  const state = await job.getState();
  if (state === 'active') {
    return { outcome: refused('intent_executing', `Intent ${target} is being executed right now and can no longer be cancelled; check its status in a moment.`) };
  }
  if (!CANCELLABLE.has(state)) {
    return { outcome: refused('intent_not_cancellable', `Intent ${target} is no longer queued (${state}); there is nothing to cancel.`) };
  }
  const cancelled: IntentResult = toResult(
    parsed.data,
    { status: 'cancelled', reason: 'cancelled_by_owner', message: `Cancelled by intent ${payload.intentId.toLowerCase()} before it ran; nothing was executed.` },
    now,
  );
  await recordIntent(sql, parsed.data, cancelled, job.timestamp);
  return {
    outcome: { status: 'executed', reason: null, message: `Cancelled intent ${target}; it will not run.`, cancelledIntentId: target },
    jobToRemove: job,
  };
}
