import { Inject, Injectable } from '@nestjs/common';
import {
  CLOSE_POSITIONS,
  type ClosedPositionResult,
  type IntentResult,
  type ToolData,
  type ToolInput,
} from '@paper/contracts';
import { type Market, usdcToMicro } from '@paper/exchange';
import { openPositionIds, positionStatuses } from '@paper/exchange-data';
import { MAX_POSITIONS_PER_CLOSE_INTENT } from '@paper/exchange-signing';
import { DataSource } from 'typeorm';
import type { Hex } from 'viem';
import type { ToolContext } from '../context/tool-context';
import { toolErrors } from '../errors/tool.error';
import { connectedWallet, type ToolHandler, type ToolOutcome } from '../handlers/tool-handler';
import { signedUsdText, usd } from '../money/money-format';
import { IntentSubmitter } from './intent.submitter';
import { SessionKeySigner } from './session-key.signer';
import { TradeChecks, resultError } from './trade-checks';

type Data = ToolData<typeof CLOSE_POSITIONS>;
type Result = Data['results'][number];

/** Largest id a position can have (bigserial). */
const MAX_ID = 9_223_372_036_854_775_807n;

const blank = (
  positionId: string,
  status: Result['status'],
  reason: string | null,
  intentId: string | null = null,
): Result => ({
  positionId,
  status,
  intentId,
  market: null,
  side: null,
  entryPrice: null,
  exitPrice: null,
  pnlUsd: null,
  feeUsd: null,
  queuedUsd: null,
  paperMinted: null,
  reason,
});

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

@Injectable()
export class ClosePositionsHandler implements ToolHandler<typeof CLOSE_POSITIONS> {
  readonly tool = CLOSE_POSITIONS;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    private readonly checks: TradeChecks,
    private readonly signer: SessionKeySigner,
    private readonly intents: IntentSubmitter,
  ) {}

  async run(input: ToolInput<typeof CLOSE_POSITIONS>, ctx: ToolContext): Promise<ToolOutcome<Data>> {
    const wallet = connectedWallet(this.tool, ctx);
    if (input.positionIds && input.all) throw toolErrors.invalid('Pass either "positionIds" or "all": true, not both.');
    if (!input.positionIds && !input.all) {
      throw toolErrors.invalid(
        'Say which positions to close: "positionIds" (at most 120 ids from get_account) or "all": true (optionally ' +
          'with "market").',
      );
    }
    if (input.market && !input.all)
      throw toolErrors.invalid('"market" only narrows "all": true; with "positionIds" list the ids to close instead.');
    const session = await this.checks.requireSession(wallet, ctx);
    const { open, skipped } = input.all
      ? await this.allOpen(wallet, input.market)
      : await this.listed(wallet, input.positionIds ?? []);
    if (open.length === 0) {
      return this.report(
        skipped,
        [],
        input.all ? `You have no open${input.market ? ` ${input.market}` : ''} positions to close.` : undefined,
      );
    }
    const account = await this.signer.account(session.address, wallet);
    const payloads = await Promise.all(
      chunk(open, MAX_POSITIONS_PER_CLOSE_INTENT).map((ids) =>
        this.intents.sign(
          { kind: 'close', message: { wallet: wallet as Hex, positionIds: ids.map((id) => BigInt(id)) } },
          account,
        ),
      ),
    );
    const outcomes = await this.intents.submitAndWait(payloads, ctx.writeProgress);
    const results: Result[] = [];
    const refusals: IntentResult[] = [];
    outcomes.forEach((outcome, i) => {
      const payload = payloads[i]!;
      const ids = payload.kind === 'close' ? payload.message.positionIds : [];
      if (outcome.state === 'pending') {
        results.push(
          ...ids.map((id) =>
            blank(
              id,
              'pending',
              'The close is submitted but not confirmed yet; check the intent with get_intent_status.',
              payload.intentId,
            ),
          ),
        );
        return;
      }
      const result = outcome.result;
      if (result.status !== 'executed') {
        refusals.push(result);
        results.push(...ids.map((id) => blank(id, 'skipped', result.message, payload.intentId)));
        return;
      }
      const closed = new Map((result.closed ?? []).map((c) => [c.positionId, c]));
      results.push(...ids.map((id) => toResult(id, closed.get(id), payload.intentId)));
    });
    if (refusals.length === outcomes.length) throw resultError(refusals[0]!);
    return this.report(
      [...results, ...skipped],
      payloads.map((p) => p.intentId),
    );
  }

  private report(results: Result[], intentIds: string[], emptyMessage?: string): ToolOutcome<Data> {
    const closed = results.filter((r) => r.status === 'closed' || r.status === 'liquidated');
    const pending = results.filter((r) => r.status === 'pending').length;
    const total = results.reduce((s, r) => s + (r.pnlUsd === null ? 0n : usdcToMicro(r.pnlUsd)), 0n);
    const skipped = results.filter((r) => r.status === 'skipped');
    const summary =
      emptyMessage ??
      [
        closed.length > 0
          ? `Closed ${closed.length} position${closed.length === 1 ? '' : 's'} ` +
            '(' +
            closed
              .map((r) => `#${r.positionId} ${r.pnlUsd !== null ? signedUsdText(usdcToMicro(r.pnlUsd)) : r.status}`)
              .join(', ') +
            `); settled PnL ${signedUsdText(total)}.`
          : null,
        pending > 0
          ? `${pending} close${pending === 1 ? ' is' : 's are'} still pending: check with get_intent_status.`
          : null,
        skipped.length > 0
          ? `${skipped.length} not closed (${skipped.map((r) => `#${r.positionId}: ${r.reason}`).join('; ')}).`
          : null,
      ]
        .filter(Boolean)
        .join(' ');
    return { summary, data: { results, closed: closed.length, pending, totalPnlUsd: usd(total), intentIds } };
  }

  private async allOpen(wallet: string, market?: Market): Promise<{ open: string[]; skipped: Result[] }> {
    return { open: await openPositionIds(this.db, wallet, market), skipped: [] };
  }

  private async listed(wallet: string, ids: readonly string[]): Promise<{ open: string[]; skipped: Result[] }> {
    const unique = [...new Set(ids.map((id) => BigInt(id).toString()))];
    const valid = unique.filter((id) => BigInt(id) > 0n && BigInt(id) <= MAX_ID);
    const found = await positionStatuses(this.db, wallet, valid);
    const unknown = unique.filter((id) => !found.has(id));
    if (unknown.length > 0) {
      throw toolErrors.notFound(
        `No open or closed position ${unknown.map((id) => `#${id}`).join(', ')} belongs to this wallet. Use the ` +
          `positionId values from get_account.`,
      );
    }
    return {
      open: unique.filter((id) => found.get(id) === 'open'),
      skipped: unique
        .filter((id) => found.get(id) !== 'open')
        .map((id) => blank(id, 'skipped', `already ${found.get(id)}`)),
    };
  }
}

function toResult(positionId: string, c: ClosedPositionResult | undefined, intentId: string): Result {
  if (!c) return blank(positionId, 'skipped', 'The exchange did not report this position.', intentId);
  const num = (v: string | null) => (v === null ? null : Number(v));
  return {
    positionId,
    status: c.outcome === 'closed' ? 'closed' : c.outcome === 'already_liquidated' ? 'liquidated' : 'skipped',
    intentId,
    market: c.market,
    side: c.side,
    entryPrice: Number(c.entryPrice),
    exitPrice: num(c.exitPrice),
    pnlUsd: num(c.pnlUsd),
    feeUsd: num(c.feeUsd),
    queuedUsd: num(c.queuedUsd),
    paperMinted: num(c.rewardMinted),
    reason: c.outcome === 'closed' ? null : c.outcome.replace('_', ' '),
  };
}
