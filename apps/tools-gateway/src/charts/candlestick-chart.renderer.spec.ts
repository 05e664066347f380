import { renderCandlestickSvg, renderChartPage } from './candlestick-chart.renderer';

const candle = (i: number, open: number, close: number) => ({
  time: 1_700_000_000_000 + i * 60_000,
  open,
  high: Math.max(open, close) + 5,
  low: Math.min(open, close) - 5,
  close,
});

describe('candlestick chart', () => {
  it('draws one candle per bar, green up and red down, within the plot', () => {
    const svg = renderCandlestickSvg([candle(0, 100, 110), candle(1, 110, 90), candle(2, 90, 95)]);
    expect(svg.match(/<g class="up">/g)).toHaveLength(2);
    expect(svg.match(/<g class="down">/g)).toHaveLength(1);
    const ys = [...svg.matchAll(/y[12]="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ys)).toBeLessThanOrEqual(480);
  });

  it('renders a self-contained page without scripts and escapes text', () => {
    const html = renderChartPage({ market: 'BTC', interval: '15m', caption: '<b>x</b>', candles: [candle(0, 1, 2)] });
    expect(html).toContain('<svg');
    expect(html).not.toContain('<script');
    expect(html).toContain('&#60;b&#62;x');
  });

  it('draws a placeholder without candles', () => {
    expect(renderCandlestickSvg([])).toContain('No candles');
  });
});
