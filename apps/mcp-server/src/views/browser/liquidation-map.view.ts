/// <reference lib="dom" />
import type { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { compactUsd, dataOf, fact, failureText, h, percent, price, show, usd, type View } from './view-kit';

interface Side {
  notionalUsd: number;
  count: number;
}

interface LiquidationMap {
  market: string;
  markPrice: number;
  bucketPercent: number;
  buckets: { priceFrom: number; priceTo: number; longs: Side; shorts: Side }[];
  largestClusters: {
    side: 'long' | 'short';
    priceFrom: number;
    priceTo: number;
    notionalUsd: number;
    count: number;
    distancePercent: number;
  }[];
  totals: { longs: Side; shorts: Side };
  outsideRange: { longs: Side; shorts: Side };
}

/**
 * get_liquidation_map: open notional by bust price in buckets around the mark, longs (liquidated as the
 * price falls) to the left and shorts (as it rises) to the right, highest prices on top, the mark
 * between its buckets, and the largest clusters.
 */
export function liquidationMapView(_app: App, root: HTMLElement): View {
  return {
    result(result: CallToolResult) {
      try {
        draw(root, dataOf<LiquidationMap>(result));
      } catch (error) {
        show(root, h('p', { class: 'error' }, failureText(error)));
      }
    },
  };
}

function draw(root: HTMLElement, map: LiquidationMap): void {
  const { market, markPrice } = map;
  const largest = Math.max(1, ...map.buckets.flatMap((b) => [b.longs.notionalUsd, b.shorts.notionalUsd]));
  const buckets = [...map.buckets].sort((a, b) => b.priceFrom - a.priceFrom);
  const markIndex = buckets.findIndex((b) => b.priceTo <= markPrice);
  const bar = (side: Side, kind: 'long' | 'short', from: number, to: number) =>
    h('span', {
      class: `bar ${kind}`,
      style: `width:${(side.notionalUsd / largest) * 100}%`,
      title: `${kind === 'long' ? 'Longs' : 'Shorts'} busting at ${price(from, market)}–${price(to, market)}: ${usd(side.notionalUsd)} in ${side.count} position(s)`,
    });
  const empty = map.totals.longs.count + map.totals.shorts.count === 0;
  show(
    root,
    h(
      'header',
      { class: 'title-row' },
      h('h1', {}, `${market} liquidation map`),
      h('span', { class: 'badge' }, `Mark ${price(markPrice, market)}`),
    ),
    h(
      'dl',
      { class: 'facts' },
      fact('Longs at risk (within 10%)', `${usd(map.totals.longs.notionalUsd)} · ${map.totals.longs.count}`),
      fact('Shorts at risk (within 10%)', `${usd(map.totals.shorts.notionalUsd)} · ${map.totals.shorts.count}`),
      fact(
        'Further away',
        `${usd(map.outsideRange.longs.notionalUsd + map.outsideRange.shorts.notionalUsd)} · ${map.outsideRange.longs.count + map.outsideRange.shorts.count}`,
      ),
    ),
    empty
      ? h('p', { class: 'muted' }, `No open position of ${market} would be liquidated within 10% of the mark.`)
      : h(
          'div',
          {
            class: 'liqmap',
            role: 'table',
            'aria-label': `Open notional by bust price, ${map.bucketPercent}% buckets`,
          },
          h(
            'div',
            { class: 'liqrow head', role: 'row' },
            h('span', { role: 'columnheader' }, 'Longs'),
            h('span', { role: 'columnheader' }, 'Bust price'),
            h('span', { role: 'columnheader' }, 'Shorts'),
          ),
          ...buckets.flatMap((b, i) => [
            i === markIndex
              ? h(
                  'div',
                  { class: 'markline', role: 'row' },
                  h('span', { role: 'cell' }, `mark ${price(markPrice, market)}`),
                )
              : null,
            h(
              'div',
              { class: 'liqrow', role: 'row' },
              h(
                'span',
                { class: 'side-cell left', role: 'cell' },
                b.longs.notionalUsd ? h('em', {}, compactUsd(b.longs.notionalUsd)) : null,
                bar(b.longs, 'long', b.priceFrom, b.priceTo),
              ),
              h('span', { class: 'price-cell', role: 'cell' }, price(b.priceFrom, market)),
              h(
                'span',
                { class: 'side-cell', role: 'cell' },
                bar(b.shorts, 'short', b.priceFrom, b.priceTo),
                b.shorts.notionalUsd ? h('em', {}, compactUsd(b.shorts.notionalUsd)) : null,
              ),
            ),
          ]),
        ),
    map.largestClusters.length
      ? h(
          'section',
          {},
          h('h2', {}, 'Largest clusters'),
          h(
            'ol',
            { class: 'clusters' },
            ...map.largestClusters.map((c) =>
              h(
                'li',
                {},
                h('span', { class: `side ${c.side}` }, c.side === 'long' ? 'Longs' : 'Shorts'),
                ` ${price(c.priceFrom, market)}–${price(c.priceTo, market)}: ${usd(c.notionalUsd)} in ${c.count}, ${percent(c.distancePercent)} from the mark`,
              ),
            ),
          ),
        )
      : null,
  );
}
