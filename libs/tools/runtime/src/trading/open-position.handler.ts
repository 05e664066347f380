import { Injectable } from '@nestjs/common';
import { OPEN_POSITION, type ToolData, type ToolInput, ToolErrorCode } from '@paper/contracts';
import { liquidationDistance, priceToScaled, usdcToMicro } from '@paper/exchange';
import type { Hex } from 'viem';
import type { ToolContext } from '../context/tool-context';
import { ToolError } from '../errors/tool.error';
import { marginToMicro } from '../handlers/calculator.handler';
import { connectedWallet, type ToolHandler, type ToolOutcome } from '../handlers/tool-handler';
import { percent, priceDecimals, priceText, usdText } from '../money/money-format';
import { IntentNotAcceptedError, IntentSubmitter } from './intent.submitter';
import { QuoteStore } from './quote.store';
import { SessionKeySigner } from './session-key.signer';
import { TradeChecks, resultError } from './trade-checks';

type Data = ToolData<typeof OPEN_POSITION>;

@Injectable()
export class OpenPositionHandler implements ToolHandler<typeof OPEN_POSITION> {
  readonly tool = OPEN_POSITION;

  constructor(
    private readonly checks: TradeChecks,
    private readonly quotes: QuoteStore,
    private readonly signer: SessionKeySigner,
    private readonly intents: IntentSubmitter,
  ) {}

  async run(input: ToolInput<typeof OPEN_POSITION>, ctx: ToolContext): Promise<ToolOutcome<Data>> {
    const wallet = connectedWallet(this.tool, ctx);
    const { market, side, leverage, quoteId } = input;
    const marginMicro = marginToMicro('marginUsd', input.marginUsd);
    const terms = { wallet, market, side, marginMicro, leverage };
    // Session, quote and signing key are independent reads (run together, reported in this order); the
    // executor checks limits, balance and guardrails when it runs the intent.
    const [sessionRead, quoteRead, keyRead] = await Promise.allSettled([
      this.checks.requireSession(wallet, ctx),
      quoteId === undefined ? Promise.resolve() : this.quotes.verify(quoteId, terms),
      this.signer.account(ctx.sessionKey ?? '', wallet),
    ]);
    const session = settled(sessionRead);
    if (quoteId === undefined && session.guardrails.requireConfirmation) {
      throw new ToolError(
        ToolErrorCode.QuoteRequired,
        'The wallet owner requires a confirmed preview before each open: call preview_trade with the same market, ' +
          'side, marginUsd and leverage, show the preview to the user and get their explicit confirmation, then call ' +
          'open_position again with its quoteId.',
      );
    }
    settled(quoteRead);
    const account = settled(keyRead);
    const claim = quoteId === undefined ? null : await this.quotes.claim(quoteId);
    if (quoteId !== undefined && claim === null) {
      throw new ToolError(
        ToolErrorCode.QuoteUsed,
        'This quote was already used to open a position; a quote opens at most one position. Call preview_trade ' +
          'again for a new quote.',
      );
    }
    // Until the exchange accepted the intent, a failure releases the quote so the same preview can be retried.
    const release = async (error: unknown): Promise<never> => {
      throw quoteId !== undefined && claim !== null ? await this.released(error, quoteId, claim) : error;
    };
    const payload = await this.intents
      .sign({ kind: 'open', message: { wallet: wallet as Hex, market, side, marginMicro, leverage } }, account)
      .catch(release);
    const [outcome] = await this.intents
      .submitAndWait([payload], ctx.writeProgress)
      .catch((error: unknown) => (error instanceof IntentNotAcceptedError ? release(error) : Promise.reject(error)));
    if (!outcome || outcome.state !== 'done') {
      return {
        summary:
          `The open of ${side} ${market} ${leverage}x with ${usdText(marginMicro)} margin was submitted as intent ` +
          `${payload.intentId} but its fill is not confirmed yet. ` +
          'It is still pending, not failed: check it with get_intent_status in a moment and do not submit it again.',
        data: { status: 'pending', intentId: payload.intentId, position: null },
      };
    }
    const { result } = outcome;
    if (result.status !== 'executed' || !result.opened) throw resultError(result);
    const opened = result.opened;
    const d = priceDecimals(opened.market);
    const entry = priceToScaled(opened.entryPrice, d);
    const bust = priceToScaled(opened.bustPrice, d);
    const position = {
      positionId: opened.positionId,
      market: opened.market,
      side: opened.side,
      marginUsd: Number(opened.marginUsd),
      leverage: opened.leverage,
      notionalUsd: Number(opened.notionalUsd),
      entryPrice: Number(opened.entryPrice),
      bustPrice: Number(opened.bustPrice),
      liquidationDistancePercent: percent(liquidationDistance(entry, bust), 4),
      openedAt: result.executedAt,
    };
    return {
      summary:
        `Opened ${side} ${market} position #${opened.positionId}: ${usdText(marginMicro)} margin at ${leverage}x ` +
        `(${usdText(usdcToMicro(opened.notionalUsd))} notional), ` +
        `filled at ${priceText(entry, market)}; liquidation at ${priceText(bust, market)} ` +
        `(${position.liquidationDistancePercent}% away).`,
      data: { status: 'filled', intentId: payload.intentId, position },
    };
  }

  /**
   * Releases the claim of a quote whose open was not accepted; the error then says the quote can be presented again.
   */
  private async released(error: unknown, quoteId: string, claim: string): Promise<unknown> {
    const released = await this.quotes.release(quoteId, claim).catch(() => false);
    if (!released || !(error instanceof ToolError)) return error;
    return new ToolError(
      error.code,
      `${error.message} Nothing was opened and quote ${quoteId} can still be used until it expires: retry ` +
        `open_position with it.`,
      error.headers,
    );
  }
}

function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}
