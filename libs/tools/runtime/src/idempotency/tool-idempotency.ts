import { Inject, Injectable, Logger } from '@nestjs/common';
import { type ToolDefinition, ToolErrorCode, type ToolSuccess, toolFailure, toolFailureSchema } from '@paper/contracts';
import {
  claimIdempotencyKey,
  IdempotencyPruner,
  type IdempotencyOutcome,
  PgIdempotencyStore,
  requestFingerprint,
} from '@paper/idempotency';
import { metricsRegistry } from '@paper/nest-infra';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import type { ToolContext, WriteProgress } from '../context/tool-context';
import { isToolError, RETRY_AFTER_SECONDS, ToolError } from '../errors/tool.error';

const clientKeys = new Counter({
  name: 'tool_client_keys_total',
  help: 'Writes with a client key (clientOrderId / Idempotency-Key) by tool and outcome: run, replay, mismatch, in_progress',
  labelNames: ['tool', 'outcome'],
  registers: [metricsRegistry],
});

/** The header of an answer sent again for a client key (REST). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const REPLAYED_SUMMARY = 'This is the first answer to this clientOrderId, sent again: nothing was done twice. ';

/** The client key of a write call (`clientOrderId`; on REST also the Idempotency-Key header), if it has one. */
export function clientKeyOf(tool: ToolDefinition, args: Record<string, unknown>): string | undefined {
  const key = args['clientOrderId'];
  return !tool.annotations.readOnlyHint && typeof key === 'string' ? key : undefined;
}

/**
 * Client keys of the tool API's writes (@paper/idempotency, `exchange.tool_idempotency_keys`), scoped to the
 * wallet: the first call with a key runs; the same key with the same arguments answers that call's answer
 * again (success or refusal, marked as a replay); with other arguments `409 idempotency_key_mismatch`; while
 * the first still runs, a retry waits for it (up to 10 s), then `409 idempotency_key_in_progress`.
 *
 * A write never runs twice: a first call that ends in a 5xx before the exchange accepted an intent frees its
 * key (nothing was done); one that ends after, or whose process died, keeps it `in_progress` until it is
 * pruned (24 h), so its outcome is read with get_account / get_intent_status instead of trading again.
 */
@Injectable()
export class ToolIdempotency {
  private readonly logger = new Logger('ToolIdempotency');
  private readonly store: PgIdempotencyStore;
  private readonly pruner: IdempotencyPruner;

  constructor(@Inject(DataSource) db: DataSource) {
    this.store = new PgIdempotencyStore(db, 'exchange.tool_idempotency_keys');
    this.pruner = new IdempotencyPruner(this.store, (e) =>
      this.logger.warn(`pruning client keys failed: ${e.message}`),
    );
  }

  async run(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    ctx: ToolContext & { wallet: string },
    key: string,
    execute: (ctx: ToolContext) => Promise<ToolSuccess>,
  ): Promise<ToolSuccess> {
    const { clientOrderId: _key, ...rest } = args;
    const fingerprint = requestFingerprint('TOOL', tool.name, rest);
    this.pruner.maybePrune();
    let claim: IdempotencyOutcome;
    try {
      claim = await claimIdempotencyKey(this.store, ctx.wallet, key, fingerprint, { takeOver: false });
    } catch (error) {
      this.logger.warn(`client key not recorded: ${(error as Error).message}`);
      throw new ToolError(
        ToolErrorCode.ExchangeUnavailable,
        'The exchange could not record the clientOrderId, so nothing was done. Please retry in a few seconds.',
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    clientKeys.inc({ tool: tool.name, outcome: claim.kind });
    if (claim.kind === 'mismatch')
      throw new ToolError(
        ToolErrorCode.IdempotencyKeyMismatch,
        `This clientOrderId was already used with other arguments for ${tool.name}; nothing was done. Use a new ` +
          'clientOrderId for a different call.',
      );
    if (claim.kind === 'in_progress')
      throw new ToolError(
        ToolErrorCode.IdempotencyKeyInProgress,
        'A call with this clientOrderId is still running, or stopped before it answered. Retry in a moment; if ' +
          'this persists, read its outcome with get_account or get_intent_status before trading again with a new ' +
          'clientOrderId.',
        { 'Retry-After': '1' },
      );
    if (claim.kind === 'replay') return replayOf(claim.answer.body);
    const progress: WriteProgress = { accepted: false };
    let result: ToolSuccess;
    try {
      result = await execute({ ...ctx, writeProgress: progress });
    } catch (error) {
      await this.settleFailure(ctx.wallet, key, error, progress);
      throw error;
    }
    await this.store
      .complete(ctx.wallet, key, { status: 200, body: result })
      .catch((e: Error) => this.logger.warn(`answer of a client key not kept: ${e.message}`));
    return result;
  }

  /** A refusal is kept for replays; a failure frees the key only when the exchange accepted nothing. */
  private async settleFailure(wallet: string, key: string, error: unknown, progress: WriteProgress): Promise<void> {
    try {
      if (isToolError(error) && error.status < 500)
        await this.store.complete(wallet, key, { status: error.status, body: toolFailure(error.code, error.message) });
      else if (!progress.accepted) await this.store.release(wallet, key);
    } catch (e) {
      this.logger.warn(`client key left running: ${(e as Error).message}`);
    }
  }
}

/** The kept answer as the first call gave it, marked as a replay. */
function replayOf(body: unknown): ToolSuccess {
  const failure = toolFailureSchema.safeParse(body);
  if (failure.success) {
    const { code, message } = failure.data.error;
    throw new ToolError(code as ToolErrorCode, message, { [REPLAYED_HEADER]: 'true' });
  }
  const success = body as ToolSuccess;
  return { ...success, summary: REPLAYED_SUMMARY + success.summary, replayed: true };
}
