/** A candle ready to draw (prices as display numbers). */
export interface ChartCandle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

export interface ChartPage {
  market: string;
  interval: string;
  candles: ChartCandle[];
  /** Text shown under the title (range statistics). */
  caption: string;
}

const WIDTH = 960;
const HEIGHT = 480;
const PAD = { top: 20, right: 80, bottom: 40, left: 16 };

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An SVG candlestick chart (server-side, no scripts). */
export function renderCandlestickSvg(candles: readonly ChartCandle[]): string {
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  if (candles.length === 0) {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img"><text ` +
      `x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle">No candles</text></svg>`
    );
  }
  const high = Math.max(...candles.map((c) => c.high));
  const low = Math.min(...candles.map((c) => c.low));
  const span = high - low || Math.abs(high) * 0.001 || 1;
  const y = (price: number) => PAD.top + ((high - price) / span) * plotH;
  const step = plotW / candles.length;
  const body = Math.max(1, step * 0.6);
  const parts: string[] = [];
  for (let i = 0; i <= 4; i += 1) {
    const price = low + (span * i) / 4;
    const yy = y(price).toFixed(1);
    parts.push(`<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${yy}" y2="${yy}" class="grid"/>`);
    parts.push(
      `<text x="${WIDTH - PAD.right + 6}" y="${yy}" class="axis" ` +
        `dominant-baseline="middle">${price.toLocaleString('en-US', { maximumFractionDigits: 2 })}</text>`,
    );
  }
  candles.forEach((c, i) => {
    const x = PAD.left + step * i + step / 2;
    const up = c.close >= c.open;
    const top = y(Math.max(c.open, c.close));
    const height = Math.max(1, Math.abs(y(c.open) - y(c.close)));
    parts.push(
      `<g class="${up ? 'up' : 'down'}"><title>${escape(new Date(c.time).toISOString())} O ${c.open} H ${c.high} L ` +
        `${c.low} C ${c.close}</title>` +
        `<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${y(c.high).toFixed(1)}" y2="${y(c.low).toFixed(1)}"/>` +
        `<rect x="${(x - body / 2).toFixed(1)}" y="${top.toFixed(1)}" width="${body.toFixed(1)}" ` +
        `height="${height.toFixed(1)}"/></g>`,
    );
  });
  for (const i of [0, Math.floor(candles.length / 2), candles.length - 1]) {
    const c = candles[i]!;
    const x = PAD.left + step * i + step / 2;
    parts.push(
      `<text x="${x.toFixed(1)}" y="${HEIGHT - 12}" class="axis" ` +
        `text-anchor="middle">${escape(new Date(c.time).toISOString().slice(0, 16).replace('T', ' '))}</text>`,
    );
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" ` +
    `aria-label="candlestick chart">` +
    `<style>.grid{stroke:#334155;stroke-width:1}.axis{fill:#94a3b8;font:12px system-ui,sans-serif}` +
    `.up line{stroke:#22c55e}.up rect{fill:#22c55e}.down line{stroke:#ef4444}.down rect{fill:#ef4444}</style>` +
    `${parts.join('')}</svg>`
  );
}

/** A self-contained HTML page (inline SVG and CSS, no scripts). */
export function renderChartPage(page: ChartPage): string {
  const title = `${page.market} ${page.interval} candles`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ` +
    `content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>body{margin:0;background:#0f172a;color:#e2e8f0;font-family:system-ui,sans-serif}
main{max-width:1000px;margin:0 auto;padding:24px}h1{font-size:20px;margin:0 0 4px}p{color:#94a3b8;margin:0 0 16px}` +
    `svg{width:100%;height:auto;background:#020617;border-radius:8px}</style></head>
<body><main><h1>${escape(title)}</h1><p>${escape(page.caption)}</p>` +
    `${renderCandlestickSvg(page.candles)}</main></body></html>`
  );
}

/** A small HTML page for a chart that cannot be drawn. */
export function renderChartError(message: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chart unavailable</title></head>
<body style="font-family:system-ui,sans-serif;padding:24px">` +
    `<h1>Chart unavailable</h1><p>${escape(message)}</p></body></html>`
  );
}
