import { Injectable } from '@nestjs/common';
import { CANCEL_INTENT, type ToolData, type ToolInput, ToolErrorCode } from '@paper/contracts';
import type { Hex } from 'viem';
import type { ToolContext } from '../context/tool-context';
import { ToolError, toolErrors } from '../errors/tool.error';
import { IntentStatusReader } from '../exchange/intent-status.reader';
import { connectedWallet, shortAddress, type ToolHandler, type ToolOutcome } from '../handlers/tool-handler';
import { IntentSubmitter } from './intent.submitter';
import { SessionKeySigner } from './session-key.signer';
import { TradeChecks, resultError } from './trade-checks';

type Data = ToolData<typeof CANCEL_INTENT>;

@Injectable()
export class CancelIntentHandler implements ToolHandler<typeof CANCEL_INTENT> {
  readonly tool = CANCEL_INTENT;

  constructor(
    private readonly checks: TradeChecks,
    private readonly statuses: IntentStatusReader,
    private readonly signer: SessionKeySigner,
    private readonly intents: IntentSubmitter,
  ) {}

  async run(input: ToolInput<typeof CANCEL_INTENT>, ctx: ToolContext): Promise<ToolOutcome<Data>> {
    const wallet = connectedWallet(this.tool, ctx);
    const target = input.intentId.toLowerCase();
    const session = await this.checks.requireSession(wallet, ctx);
    const before = await this.statuses.find(target);
    if (!before || before.wallet !== wallet) {
      throw toolErrors.notFound(
        `No intent ${target} of this wallet is known. Check the intentId returned by open_position or close_positions.`,
      );
    }
    if (!before.pending) {
      throw new ToolError(
        ToolErrorCode.TradeRefused,
        `Intent ${shortAddress(target)} is no longer queued (it is ${before.status}), so there is nothing to cancel.` +
          (before.status === 'executed' && before.kind === 'open'
            ? ' To undo an open, close the position with close_positions.'
            : ''),
      );
    }
    const account = await this.signer.account(session.address, wallet);
    const payload = await this.intents.sign(
      { kind: 'cancel', message: { wallet: wallet as Hex, intentId: target as Hex } },
      account,
    );
    const [outcome] = await this.intents.submitAndWait([payload], ctx.writeProgress);
    if (!outcome || outcome.state !== 'done') {
      return {
        summary:
          `The cancellation of intent ${shortAddress(target)} is submitted (intent ` +
          `${shortAddress(payload.intentId)}) but not confirmed yet; check both with get_intent_status in a moment.`,
        data: {
          intentId: target,
          cancelIntentId: payload.intentId,
          status: 'pending',
          message: 'The cancellation is queued.',
        },
      };
    }
    const { result } = outcome;
    if (result.status === 'executed' && result.cancelledIntentId) {
      return {
        summary: `Cancelled intent ${shortAddress(target)} before it ran; nothing was executed.`,
        data: { intentId: target, cancelIntentId: payload.intentId, status: 'cancelled', message: result.message },
      };
    }
    const after = await this.statuses.find(target);
    if (
      after &&
      !after.pending &&
      (result.reason === 'intent_not_cancellable' || result.reason === 'intent_executing')
    ) {
      return {
        summary: `Intent ${shortAddress(target)} could not be cancelled: it is ${after.status}. ${result.message}`,
        data: { intentId: target, cancelIntentId: payload.intentId, status: after.status, message: result.message },
      };
    }
    throw resultError(result);
  }
}
