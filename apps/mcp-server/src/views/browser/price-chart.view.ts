/// <reference lib="dom" />
import type { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  callTool,
  compactUsd,
  dataOf,
  fact,
  failureText,
  h,
  percent,
  price,
  show,
  svg,
  time,
  tone,
  type View,
} from './view-kit';

interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

interface Chart {
  market: string;
  interval: string;
  candles: Candle[];
  stats: {
    open: number;
    close: number;
    high: number;
    low: number;
    change: number;
    changePercent: number;
    volume: number;
    from: number;
    to: number;
  };
}

/** The intervals offered by the switch (get_price_chart accepts more; these cover minutes to weeks). */
const INTERVALS = ['5m', '15m', '1h', '4h', '1d'];
const PRICE_HEIGHT = 220;
const VOLUME_HEIGHT = 48;
const AXIS_WIDTH = 78;

/** get_price_chart: candlesticks with volume, range statistics, the values under the pointer, an interval switch. */
export function priceChartView(app: App, root: HTMLElement): View {
  let chart: Chart | undefined;
  let count: number | undefined;
  let hovered: number | undefined;
  let status = '';
  const resize = new ResizeObserver(() => draw());

  const load = async (interval: string) => {
    if (!chart) return;
    status = `Loading ${interval}…`;
    draw();
    try {
      chart = await callTool<Chart>(app, 'get_price_chart', {
        market: chart.market,
        interval,
        count: count ?? chart.candles.length,
      });
      status = '';
      hovered = undefined;
    } catch (error) {
      status = failureText(error);
    }
    draw();
  };

  function draw(): void {
    if (!chart) return;
    const { market, stats, candles } = chart;
    const width = Math.max(280, root.clientWidth);
    const shown = hovered === undefined ? undefined : candles[hovered];
    show(
      root,
      h(
        'header',
        { class: 'title-row' },
        h('h1', {}, `${market} perpetual · ${chart.interval}`),
        h(
          'span',
          { class: `change ${tone(stats.change)}` },
          `${price(stats.close, market)} ${percent(stats.changePercent, true)}`,
        ),
      ),
      h(
        'div',
        { class: 'segmented', role: 'group', 'aria-label': 'Interval' },
        ...INTERVALS.map((interval) =>
          h(
            'button',
            {
              type: 'button',
              'aria-pressed': interval === chart!.interval ? 'true' : 'false',
              onclick: () => void load(interval),
            },
            interval,
          ),
        ),
      ),
      h(
        'p',
        { class: 'readout', role: 'status' },
        shown ? readout(shown, market) : status || 'Point at a candle to read its values.',
      ),
      candles.length
        ? plot(candles, market, width, hovered, (index) => ((hovered = index), draw()))
        : h('p', { class: 'muted' }, 'The venue has no candles for this range.'),
      h(
        'dl',
        { class: 'facts' },
        fact('Open', price(stats.open, market)),
        fact('High', price(stats.high, market)),
        fact('Low', price(stats.low, market)),
        fact('Close', price(stats.close, market)),
        fact(
          'Change',
          h(
            'span',
            { class: tone(stats.change) },
            `${stats.change >= 0 ? '+' : ''}${stats.change.toLocaleString('en-US')} (${percent(stats.changePercent, true)})`,
          ),
        ),
        fact('Volume', compactUsd(stats.volume)),
        fact('Range', `${time(stats.from, true)} – ${time(stats.to, true)}`),
      ),
    );
  }

  return {
    input(args) {
      if (typeof args['count'] === 'number') count = args['count'];
    },
    result(result: CallToolResult) {
      try {
        chart = dataOf<Chart>(result);
        resize.observe(root);
        draw();
      } catch (error) {
        show(root, h('p', { class: 'error' }, failureText(error)));
      }
    },
    dispose: () => resize.disconnect(),
  };
}

function readout(candle: Candle, market: string): string {
  return `${time(candle.time, true)}  O ${price(candle.open, market)}  H ${price(candle.high, market)}  L ${price(candle.low, market)}  C ${price(candle.close, market)}  V ${compactUsd(candle.volume)}`;
}

/** The SVG chart: candles over volume bars, a price axis, a crosshair on the hovered candle. */
function plot(
  candles: Candle[],
  market: string,
  width: number,
  hovered: number | undefined,
  hover: (index: number | undefined) => void,
): SVGElement {
  const plotWidth = width - AXIS_WIDTH;
  const high = Math.max(...candles.map((c) => c.high));
  const low = Math.min(...candles.map((c) => c.low));
  const span = high - low || high * 0.001 || 1;
  const maxVolume = Math.max(...candles.map((c) => c.volume)) || 1;
  const step = plotWidth / candles.length;
  const body = Math.max(1, step * 0.7);
  const y = (value: number) => 8 + ((high - value) / span) * (PRICE_HEIGHT - 16);
  const height = PRICE_HEIGHT + VOLUME_HEIGHT + 20;
  const ticks = [0, 1, 2, 3].map((i) => low + (span * i) / 3);
  const indexAt = (event: PointerEvent) => {
    const box = (event.currentTarget as SVGElement).getBoundingClientRect();
    const index = Math.floor(((event.clientX - box.left) / box.width) * (width / step));
    return index >= 0 && index < candles.length ? index : undefined;
  };
  return svg(
    'svg',
    {
      class: 'chart',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      tabindex: 0,
      'aria-label': `${market} candlestick chart, ${candles.length} candles from ${price(candles[0]!.open, market)} to ${price(candles.at(-1)!.close, market)}; use the arrow keys to read each candle`,
      onpointermove: (event) => hover(indexAt(event as PointerEvent)),
      onpointerleave: () => hover(undefined),
      onkeydown: (event) => {
        const key = (event as KeyboardEvent).key;
        if (key !== 'ArrowLeft' && key !== 'ArrowRight') return;
        event.preventDefault();
        const from = hovered ?? (key === 'ArrowLeft' ? candles.length : -1);
        hover(Math.min(candles.length - 1, Math.max(0, from + (key === 'ArrowLeft' ? -1 : 1))));
      },
    },
    ...ticks.map((tick) =>
      svg(
        'g',
        { class: 'grid' },
        svg('line', { x1: 0, x2: plotWidth, y1: y(tick), y2: y(tick) }),
        svg('text', { x: plotWidth + 6, y: y(tick) + 4 }, price(tick, market)),
      ),
    ),
    ...candles.map((c, i) => {
      const x = i * step + step / 2;
      const direction = c.close >= c.open ? 'up' : 'down';
      const volume = (c.volume / maxVolume) * VOLUME_HEIGHT;
      return svg(
        'g',
        { class: `candle ${direction}` },
        svg('line', { x1: x, x2: x, y1: y(c.high), y2: y(c.low) }),
        svg('rect', {
          x: x - body / 2,
          y: y(Math.max(c.open, c.close)),
          width: body,
          height: Math.max(1, Math.abs(y(c.open) - y(c.close))),
        }),
        svg('rect', {
          class: 'volume',
          x: x - body / 2,
          y: PRICE_HEIGHT + VOLUME_HEIGHT - volume,
          width: body,
          height: volume,
        }),
      );
    }),
    hovered === undefined
      ? null
      : svg('line', {
          class: 'crosshair',
          x1: hovered * step + step / 2,
          x2: hovered * step + step / 2,
          y1: 0,
          y2: PRICE_HEIGHT + VOLUME_HEIGHT,
        }),
    svg('text', { class: 'axis', x: 0, y: height - 4 }, time(candles[0]!.time, true)),
    svg('text', { class: 'axis', x: plotWidth, y: height - 4, 'text-anchor': 'end' }, time(candles.at(-1)!.time, true)),
  );
}
