import { Injectable } from '@nestjs/common';
import { PREVIEW_TRADE, type ToolData, type ToolInput } from '@paper/contracts';
import { DEFAULT_MARKET_CONFIGS, bustPrice, liquidationDistance, pnlScenarios } from '@paper/exchange';
import type { ToolContext } from '../context/tool-context';
import { guardrailsData } from '../exchange/session-keys.reader';
import { marginToMicro } from '../handlers/calculator.handler';
import { connectedWallet, type ToolHandler, type ToolOutcome } from '../handlers/tool-handler';
import { percent, priceText, px, signedUsdText, usd, usdText } from '../money/money-format';
import { QuoteStore } from './quote.store';
import { TradeChecks } from './trade-checks';

type Data = ToolData<typeof PREVIEW_TRADE>;

@Injectable()
export class PreviewTradeHandler implements ToolHandler<typeof PREVIEW_TRADE> {
  readonly tool = PREVIEW_TRADE;

  constructor(
    private readonly checks: TradeChecks,
    private readonly quotes: QuoteStore,
  ) {}

  async run(input: ToolInput<typeof PREVIEW_TRADE>, ctx: ToolContext): Promise<ToolOutcome<Data>> {
    const wallet = connectedWallet(this.tool, ctx);
    const { market, side, leverage } = input;
    const marginMicro = marginToMicro('marginUsd', input.marginUsd);
    const [session, snapshot] = await Promise.all([
      this.checks.requireSession(wallet, ctx),
      this.checks.snapshot(wallet, market),
    ]);
    const checked = this.checks.evaluate(snapshot, session, { market, side, marginMicro, leverage });
    const config = DEFAULT_MARKET_CONFIGS[market];
    const entry = checked.price.mid;
    const bust = bustPrice(side, entry, leverage, config.bustBuffer);
    const raw = pnlScenarios({ market, side, marginMicro, leverage, entryPrice: entry, config });
    const scenarios = raw.map((s) => ({
      label: s.label,
      exitPrice: px(s.outcome.exitPrice, market),
      liquidated: s.outcome.liquidated,
      pnlUsd: usd(s.outcome.pnlMicro),
    }));
    const quote = await this.quotes.create({ wallet, market, side, marginMicro, leverage });
    const distance = percent(liquidationDistance(entry, bust), 4);
    const up = raw.find((s) => s.moveBps === 100)?.outcome.pnlMicro;
    const down = raw.find((s) => s.moveBps === -100)?.outcome.pnlMicro;
    const minutes = Math.round((quote.expiresAt - Date.now()) / 60_000);
    const summary =
      `Preview: ${side} ${market} ${leverage}x with ${usdText(marginMicro)} margin ` +
      `(${usdText(checked.notionalMicro)} notional) at about ${priceText(entry, market)}; ` +
      `liquidation at ${priceText(bust, market)} (${distance}% away), the most you can lose is the ` +
      `${usdText(marginMicro)} margin. ` +
      (up !== undefined && down !== undefined
        ? `A +1% price move settles ${signedUsdText(up)}, -1% ${signedUsdText(down)}. `
        : '') +
      `Quote ${quote.quoteId} is valid for ${minutes} minutes: confirm with the user, then call open_position with ` +
      `the same market, side, marginUsd and leverage and this quoteId.`;
    return {
      summary,
      data: {
        quoteId: quote.quoteId,
        expiresAt: new Date(quote.expiresAt).toISOString(),
        validForSeconds: Math.round((quote.expiresAt - Date.now()) / 1000),
        market,
        side,
        marginUsd: usd(marginMicro),
        leverage,
        notionalUsd: usd(checked.notionalMicro),
        estimatedEntryPrice: px(entry, market),
        bid: px(checked.price.bid, market),
        ask: px(checked.price.ask, market),
        bustPrice: px(bust, market),
        liquidationDistancePercent: distance,
        scenarios,
        availableBalanceUsd: usd(checked.availableMicro),
        confirmationRequired: session.guardrails.requireConfirmation,
        guardrails: guardrailsData(session.guardrails),
      },
    };
  }
}
