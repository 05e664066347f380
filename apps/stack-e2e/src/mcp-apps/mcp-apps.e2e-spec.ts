import type { CallToolResult, ReadResourceResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_CATALOG, TOOL_VIEWS, mcpResource, toolViewUri } from '@paper/contracts';
import { type TestStack, startTestStack } from '@paper/dev-stack';
import type { Browser } from 'playwright-core';
import { runInspectorCli } from '../mcp/inspector-cli';
import { callTool, connectMcp, type McpConnection } from '../mcp/mcp-test-client';
import { launchChromium, screenshot } from '../oauth/consent-driver';
import { TRADING_APPS, type Trader, connectTrader, waitFor, waitForPrices } from '../tools/tool-test-kit';
import { type TestIssuer, startTestIssuer } from '../tools/token-issuer';
import { AppHost, type RenderedView } from './app-host';

const SCREENSHOTS = process.env['SCREENSHOTS'] === '1';
const MIME = 'text/html;profile=mcp-app';
/** Short quotes, so the expired-quote path is reached for real within the test. */
const QUOTE_TTL_SECONDS = 30;
const TRADE = { market: 'BTC', side: 'long', marginUsd: 25, leverage: 500 };

type Csp = Record<string, string[]>;

describe('MCP Apps: the views drawn by a host on the ext-apps bridge, acting through the running stack', () => {
  let issuer: TestIssuer;
  let stack: TestStack;
  let browser: Browser;
  let trader: Trader;
  let mcp: McpConnection;
  let host: AppHost;
  const resources = new Map<string, { html: string; csp: Csp | undefined }>();
  const open: RenderedView[] = [];

  beforeAll(async () => {
    issuer = await startTestIssuer();
    stack = await startTestStack({
      apps: [...TRADING_APPS, 'mcp-server'],
      env: { OAUTH_JWKS_URL: issuer.jwksUrl, QUOTE_TTL_SECONDS: String(QUOTE_TTL_SECONDS) },
    });
    issuer.bind(stack.baseUrl);
    await waitForPrices(stack.baseUrl);
    trader = await connectTrader(stack, issuer);
    const token = await issuer.mint({
      wallet: trader.wallet,
      sessionKey: trader.sessionKey,
      audience: mcpResource(stack.baseUrl),
    });
    mcp = await connectMcp(stack.baseUrl, { token });
    browser = await launchChromium();
    host = new AppHost(browser, mcp.client);
    await host.start();
    for (const view of TOOL_VIEWS) {
      const read = (await mcp.client.readResource({ uri: toolViewUri(view) })) as ReadResourceResult;
      const content = read.contents[0] as { text: string; _meta?: { ui?: { csp?: Csp } } };
      resources.set(view, { html: content.text, csp: content._meta?.ui?.csp });
    }
  });

  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((v) => v.close()));
  });

  afterAll(async () => {
    await Promise.allSettled([mcp?.close(), host?.stop(), browser?.close()]);
    await stack?.stop();
    await issuer?.stop();
  });

  /** Calls the tool as the model would, then has the host draw its view with that result. */
  async function show(
    view: string,
    tool: string,
    args: Record<string, unknown>,
    o: { theme?: 'light' | 'dark'; width?: number; height?: number } = {},
  ): Promise<RenderedView & { result: CallToolResult }> {
    const result = await callTool(mcp.client, tool, args);
    expect(result.isError).toBeFalsy();
    const { html, csp } = resources.get(view)!;
    const rendered = await host.render(html, csp, { ...o, toolInput: args, toolResult: result });
    open.push(rendered);
    return { ...rendered, result };
  }

  /** What the view shows, as one string. */
  const text = (r: RenderedView) => r.view.locator('main').innerText();

  it('lists the four UI resources and serves each as a self-contained HTML document with empty CSP allow-lists', async () => {
    const { resources: listed } = await mcp.client.listResources();
    expect(listed.map((r) => r.uri)).toEqual(TOOL_VIEWS.map(toolViewUri));
    for (const resource of listed) {
      expect(resource).toMatchObject({ mimeType: MIME, title: expect.any(String), description: expect.any(String) });
      expect(resource._meta).toEqual({
        ui: {
          csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
          prefersBorder: true,
        },
      });
    }
    for (const view of TOOL_VIEWS) {
      const read = (await mcp.client.readResource({ uri: toolViewUri(view) })) as ReadResourceResult;
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0]).toMatchObject({ uri: toolViewUri(view), mimeType: MIME });
      const html = resources.get(view)!.html;
      expect(html).toMatch(/^<!DOCTYPE html>/);
      expect(html).toContain(`data-view="${view}"`);
      // Nothing is loaded from elsewhere: no external script, style sheet, font or image.
      expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
      const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
      expect(style).toBeDefined();
      expect(style).not.toMatch(/@import|url\(\s*["']?(?:https?:)?\/\//i);
    }
    await expect(mcp.client.readResource({ uri: 'ui://paper-perps/nothing' })).rejects.toMatchObject({ code: -32002 });
  });

  it('marks the four tools with their view in tools/list (SDK client and MCP Inspector CLI), nothing else changed', async () => {
    const { tools } = await mcp.client.listTools();
    const withView = (list: Pick<Tool, 'name' | '_meta'>[]) =>
      Object.fromEntries(
        list.filter((t) => t._meta).map((t) => [t.name, (t._meta as { ui: { resourceUri: string } }).ui.resourceUri]),
      );
    const expected = {
      get_price_chart: toolViewUri('price-chart'),
      get_liquidation_map: toolViewUri('liquidation-map'),
      get_account: toolViewUri('account'),
      preview_trade: toolViewUri('trade-ticket'),
    };
    expect(withView(tools)).toEqual(expected);
    expect(tools.find((t) => t.name === 'preview_trade')!._meta).toEqual({
      ui: { resourceUri: toolViewUri('trade-ticket') },
      'ui/resourceUri': toolViewUri('trade-ticket'),
    });
    expect(tools.map((t) => t.name)).toEqual(TOOL_CATALOG.map((t) => t.name));

    const url = `${stack.baseUrl}/mcp`;
    const listed = await runInspectorCli(url, ['--method', 'tools/list']);
    expect(listed.code).toBe(0);
    expect(withView((JSON.parse(listed.stdout) as { tools: Tool[] }).tools)).toEqual(expected);
    const resourceList = await runInspectorCli(url, ['--method', 'resources/list']);
    expect(resourceList.code).toBe(0);
    expect((JSON.parse(resourceList.stdout) as { resources: { uri: string; mimeType: string }[] }).resources).toEqual(
      TOOL_VIEWS.map((view) => expect.objectContaining({ uri: toolViewUri(view), mimeType: MIME })),
    );
    const read = await runInspectorCli(url, ['--method', 'resources/read', '--uri', toolViewUri('price-chart')]);
    expect(read.code).toBe(0);
    expect((JSON.parse(read.stdout) as ReadResourceResult).contents[0]).toMatchObject({
      mimeType: MIME,
      text: expect.stringMatching(/^<!DOCTYPE html>/),
    });
  });

  it('price chart: candles, range stats and the values under the pointer; the interval switch calls the tool again through the host', async () => {
    const r = await show('price-chart', 'get_price_chart', { market: 'BTC', interval: '15m', count: 48 });
    await expect(r.view.getByRole('heading', { name: 'BTC perpetual · 15m' }).waitFor()).resolves.toBeUndefined();
    expect(await r.view.locator('g.candle').count()).toBe(48);
    const shown = await text(r);
    const stats = (r.result.structuredContent as { stats: { high: number } }).stats;
    expect(shown).toContain(
      `$${stats.high.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`,
    );
    for (const label of ['Open', 'High', 'Low', 'Close', 'Change', 'Volume', 'Range']) expect(shown).toContain(label);

    const chart = r.view.getByRole('img', { name: /BTC candlestick chart/ });
    const box = (await chart.boundingBox())!;
    await r.page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
    await expect(
      r.view
        .getByRole('status')
        .filter({ hasText: /O \$[\d,.]+ {2}H \$/ })
        .waitFor(),
    ).resolves.toBeUndefined();

    await r.view.getByRole('button', { name: '1h' }).click();
    await r.view.getByRole('heading', { name: 'BTC perpetual · 1h' }).waitFor();
    expect(r.calls).toEqual([{ name: 'get_price_chart', arguments: { market: 'BTC', interval: '1h', count: 48 } }]);
    expect(await r.view.getByRole('button', { name: '1h' }).getAttribute('aria-pressed')).toBe('true');
    expect(r.foreignRequests).toEqual([]);
    expect(r.consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });

  it('trade ticket: shows the preview with its countdown; Confirm opens the position through the bridge and the stack', async () => {
    const r = await show('trade-ticket', 'preview_trade', TRADE);
    const quote = r.result.structuredContent as { quoteId: string; notionalUsd: number; bustPrice: number };
    await r.view.getByRole('heading', { name: 'Long BTC 500x' }).waitFor();
    await expect(r.view.getByRole('timer').innerText()).resolves.toMatch(/^Quote valid 0:(?:[0-2]\d|30)$/);
    const shown = await text(r);
    expect(shown).toContain('$12,500.00'); // notional = 25 x 500
    expect(shown).toContain('Margin (most you can lose)');
    expect(shown).toContain(
      `$${quote.bustPrice.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`,
    );
    expect(await r.view.getByRole('row').count()).toBeGreaterThanOrEqual(5); // header + the PnL scenarios
    expect(shown).toContain('each trade needs a preview and your confirmation');

    await r.view.getByRole('button', { name: 'Confirm' }).click();
    const filled = r.view.getByRole('status').filter({ hasText: /^Position \d+ opened/ });
    await filled.waitFor({ timeout: 30000 });
    const positionId = /^Position (\d+) opened/.exec(await filled.innerText())![1]!;
    expect(r.calls).toEqual([{ name: 'open_position', arguments: { ...TRADE, quoteId: quote.quoteId } }]);
    expect(r.modelContext.join('\n')).toContain(`position ${positionId}`);
    expect(await r.view.getByRole('button', { name: 'Confirm' }).count()).toBe(0);

    const account = await callTool(mcp.client, 'get_account');
    expect((account.structuredContent as { positions: { positionId: string; leverage: number }[] }).positions).toEqual(
      expect.arrayContaining([expect.objectContaining({ positionId, leverage: 500 })]),
    );
  });

  it('trade ticket: an expired quote offers a new preview instead of Confirm, and Cancel opens nothing', async () => {
    const r = await show('trade-ticket', 'preview_trade', TRADE);
    await r.view.getByRole('heading', { name: 'Long BTC 500x' }).waitFor();
    await r.view.getByText('Quote expired', { exact: true }).waitFor({ timeout: (QUOTE_TTL_SECONDS + 30) * 1000 });
    expect(await r.view.getByRole('button', { name: 'Confirm' }).count()).toBe(0);
    expect(await text(r)).toMatch(/This quote expired\. Prices move: get a new quote/);

    await r.view.getByRole('button', { name: 'Preview again' }).click();
    await r.view
      .getByRole('timer')
      .filter({ hasText: /^Quote valid 0:(?:[12]\d|30)$/ })
      .waitFor();
    expect(r.calls).toEqual([{ name: 'preview_trade', arguments: TRADE }]);
    await expect(r.view.getByRole('button', { name: 'Confirm' }).isEnabled()).resolves.toBe(true);

    const before = await callTool(mcp.client, 'get_account');
    await r.view.getByRole('button', { name: 'Cancel' }).click();
    await r.view.getByText('Cancelled. No position was opened.').waitFor();
    expect(r.calls.map((c) => c.name)).toEqual(['preview_trade']);
    expect(r.modelContext.join('\n')).toMatch(/cancelled the previewed trade/);
    const after = await callTool(mcp.client, 'get_account');
    expect((after.structuredContent as { positions: unknown[] }).positions).toHaveLength(
      (before.structuredContent as { positions: unknown[] }).positions.length,
    );
  });

  it('account: balances and positions with PnL, bust price and distance to liquidation; Close closes the position through the bridge', async () => {
    const r = await show('account', 'get_account', {});
    const account = r.result.structuredContent as {
      equityUsd: number;
      positions: { positionId: string; bustPrice: number }[];
    };
    expect(account.positions.length).toBeGreaterThan(0);
    const position = account.positions[0]!;
    await r.view.getByRole('heading', { name: /^Open positions \(\d+\)$/ }).waitFor();
    const card = r.view.getByRole('article', { name: `Position ${position.positionId}` });
    const shown = await card.innerText();
    for (const label of ['Margin', 'Entry', 'Mark', 'Bust price', 'To liquidation']) expect(shown).toContain(label);
    expect(shown).toContain(
      `$${position.bustPrice.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`,
    );
    expect(await text(r)).toContain('Equity');

    await card.getByRole('button', { name: /^Close BTC long$/ }).click();
    await r.view
      .getByRole('status')
      .filter({ hasText: new RegExp(`^Position ${position.positionId}: Closed at \\$`) })
      .waitFor({ timeout: 30000 });
    expect(r.calls.filter((c) => c.name === 'close_positions')).toEqual([
      { name: 'close_positions', arguments: { positionIds: [position.positionId] } },
    ]);
    await waitFor('the position gone from the account', async () => {
      const after = await callTool(mcp.client, 'get_account');
      return (after.structuredContent as { positions: { positionId: string }[] }).positions.some(
        (p) => p.positionId === position.positionId,
      )
        ? undefined
        : true;
    });
    expect(await r.view.getByRole('article', { name: `Position ${position.positionId}` }).count()).toBe(0);
  });

  it('liquidation map: open notional by bust price around the mark, with the largest clusters', async () => {
    const preview = await callTool(mcp.client, 'preview_trade', TRADE);
    const opened = await callTool(mcp.client, 'open_position', {
      ...TRADE,
      quoteId: (preview.structuredContent as { quoteId: string }).quoteId,
    });
    expect(opened.structuredContent).toMatchObject({ status: 'filled' });
    const r = await show('liquidation-map', 'get_liquidation_map', { market: 'BTC' });
    await r.view.getByRole('heading', { name: 'BTC liquidation map' }).waitFor();
    const map = r.result.structuredContent as { largestClusters: unknown[]; totals: { longs: { count: number } } };
    expect(map.totals.longs.count).toBeGreaterThan(0);
    expect(await r.view.getByRole('row').count()).toBeGreaterThan(40); // header + 40 buckets (+ the mark line)
    expect(await r.view.locator('.bar.long[style*="width:100%"]').count()).toBeGreaterThan(0);
    await r.view.getByRole('heading', { name: 'Largest clusters' }).waitFor();
    expect(await r.view.locator('.clusters li').count()).toBe(map.largestClusters.length);
    expect(await text(r)).toMatch(/mark \$[\d,.]+/);
  });

  it.each(
    TOOL_VIEWS.flatMap((view) =>
      (['light', 'dark'] as const).flatMap((theme) => [360, 390, 1000].map((width) => [view, theme, width] as const)),
    ),
  )('%s in the %s theme at %i px reads without horizontal scrolling', async (view, theme, width) => {
    const call = {
      'price-chart': ['get_price_chart', { market: 'BTC', interval: '1h', count: 72 }],
      'trade-ticket': ['preview_trade', TRADE],
      account: ['get_account', {}],
      'liquidation-map': ['get_liquidation_map', { market: 'BTC' }],
    } as const;
    const [tool, args] = call[view];
    const r = await show(view, tool, args, { theme, width, height: 900 });
    await r.view.locator('main h1').waitFor();
    const frame = r.page.frames().find((f) => f.parentFrame() !== null && f.parentFrame() !== r.page.mainFrame())!;
    const layout = await frame.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      scheme: getComputedStyle(document.documentElement).colorScheme,
      background: getComputedStyle(document.body).backgroundColor,
    }));
    expect(layout.overflow).toBeLessThanOrEqual(0);
    expect(layout.scheme).toBe(theme);
    expect(layout.background).toBe(theme === 'dark' ? 'rgb(22, 24, 29)' : 'rgb(255, 255, 255)');
    // Let the host size the frame to the view before the picture.
    await waitFor('the view frame sized to its content', async () =>
      (await r.page
        .locator('iframe')
        .first()
        .evaluate((e) => e.getBoundingClientRect().height)) > 200
        ? true
        : undefined,
    );
    // The pictures in docs/mcp.md: 390 px (a phone) and 1000 px.
    await screenshot(
      SCREENSHOTS && width !== 360,
      r.page,
      `mcp-app-${view}-${width === 390 ? 'mobile' : 'desktop'}-${theme}`,
    );
  });
});
