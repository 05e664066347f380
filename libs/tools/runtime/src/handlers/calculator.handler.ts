import { Injectable } from '@nestjs/common';
import { CALCULATE_POSITION, type ToolData, type ToolInput } from '@paper/contracts';
import {
  DEFAULT_MARKET_CONFIGS,
  type Market,
  calculatePosition,
  checkOpen,
  priceToScaled,
  usdcToMicro,
  winFeeRate,
} from '@paper/exchange';
import { toolErrors } from '../errors/tool.error';
import { PriceReader } from '../exchange/price.reader';
import { percent, percentOf, priceDecimals, priceText, px, signedUsdText, usd, usdText } from '../money/money-format';
import type { ToolHandler, ToolOutcome } from './tool-handler';

type Data = ToolData<typeof CALCULATE_POSITION>;

/** A USD amount from the arguments as micro-USDC; refuses amounts below one micro-USDC. */
export function marginToMicro(name: string, value: number): bigint {
  const micro = usdcToMicro(value);
  if (micro <= 0n) throw toolErrors.invalid(`"${name}" must be at least 0.000001 USDC (one micro-USDC); got ${value}.`);
  return micro;
}

/** A price from the arguments at the market's scale; refuses prices below the market's price step. */
export function priceArgToScaled(name: string, value: number, market: Market): bigint {
  const scaled = priceToScaled(value, priceDecimals(market));
  if (scaled <= 0n) {
    throw toolErrors.invalid(
      `"${name}" must be at least ${1 / 10 ** priceDecimals(market)} (the ${market} price step); got ${value}.`,
    );
  }
  return scaled;
}

@Injectable()
export class CalculatorHandler implements ToolHandler<typeof CALCULATE_POSITION> {
  readonly tool = CALCULATE_POSITION;

  constructor(private readonly prices: PriceReader) {}

  async run(input: ToolInput<typeof CALCULATE_POSITION>): Promise<ToolOutcome<Data>> {
    const { market, side, leverage } = input;
    const config = DEFAULT_MARKET_CONFIGS[market];
    const marginMicro = marginToMicro('marginUsd', input.marginUsd);
    let entrySource: Data['entrySource'] = 'given';
    let entry: bigint;
    if (input.entryPrice !== undefined) {
      entry = priceArgToScaled('entryPrice', input.entryPrice, market);
    } else {
      const live = await this.prices.latest(market);
      entry = side === 'long' ? live.ask : live.bid;
      entrySource = side === 'long' ? 'live_ask' : 'live_bid';
    }
    const exitPrice = input.exitPrice === undefined ? null : priceArgToScaled('exitPrice', input.exitPrice, market);
    const calc = calculatePosition({ market, side, marginMicro, leverage, entryPrice: entry, exitPrice, config });
    const limits = checkOpen({
      market,
      side,
      marginMicro,
      leverage,
      config,
      tradingEnabled: true,
      availableBalanceMicro: marginMicro,
      sideOpenInterestMicro: 0n,
    });
    const exit = calc.exit;
    const s = exit?.settlement ?? null;
    const fee = winFeeRate(config.winCurve);
    const data: Data = {
      market,
      side,
      marginUsd: usd(marginMicro),
      leverage,
      notionalUsd: usd(calc.notionalMicro),
      entryPrice: px(entry, market),
      entrySource,
      bustPrice: px(calc.bustPrice, market),
      liquidationDistancePercent: percent(calc.liquidationDistance, 4),
      deadband: px(calc.deadband, market),
      winFeePercent: percent(fee, 4),
      exit: exit
        ? {
            exitPrice: px(exit.exitPrice, market),
            liquidated: exit.liquidated,
            pnlUsd: usd(exit.pnlMicro),
            rawPnlUsd: usd(s ? s.rawPnlMicro : -marginMicro),
            haircutUsd: usd(s ? s.haircutMicro : 0n),
            feeUsd: usd(s ? s.feeMicro : 0n),
            keepRatio: s?.keepRatio ? Number(s.keepRatio) : null,
            returnPercent: percentOf(exit.pnlMicro, marginMicro, 2) ?? 0,
          }
        : null,
      exchangeLimits: { accepted: limits.ok, issue: limits.ok ? null : limits.message },
    };
    const entryText =
      priceText(entry, market) +
      (entrySource === 'given' ? '' : ` (live ${entrySource === 'live_ask' ? 'ask' : 'bid'})`);
    const exitText = exit
      ? exit.liquidated
        ? ` At ${priceText(exit.exitPrice, market)} it would be liquidated, losing the whole ` +
          `${usdText(marginMicro)} margin.`
        : ` Closing at ${priceText(exit.exitPrice, market)} settles ${signedUsdText(exit.pnlMicro)} ` +
          `(${data.exit!.returnPercent}% of margin).`
      : '';
    return {
      summary:
        `${side === 'long' ? 'Long' : 'Short'} ${market} ${leverage}x with ${usdText(marginMicro)} margin ` +
        `(${usdText(calc.notionalMicro)} notional) from ${entryText}: ` +
        `liquidated at ${priceText(calc.bustPrice, market)}, ${data.liquidationDistancePercent}% away.${exitText}` +
        (limits.ok ? '' : ` Note: ${limits.message}`),
      data,
    };
  }
}
