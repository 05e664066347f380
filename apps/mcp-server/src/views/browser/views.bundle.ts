/// <reference lib="dom" />
/**
 * Browser entry of the MCP Apps views: connects to the host (the `App` client of ext-apps over
 * postMessage), follows the host's theme and style variables, and hands the tool's input and result
 * to the view named by `<body data-view>`.
 */
import { App, PostMessageTransport, applyDocumentTheme, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps';
import { accountView } from './account.view';
import { liquidationMapView } from './liquidation-map.view';
import { priceChartView } from './price-chart.view';
import { tradeTicketView } from './trade-ticket.view';
import type { View } from './view-kit';

const VIEWS: Record<string, (app: App, root: HTMLElement) => View> = {
  'price-chart': priceChartView,
  'trade-ticket': tradeTicketView,
  account: accountView,
  'liquidation-map': liquidationMapView,
};

function applyContext(context: ReturnType<App['getHostContext']>): void {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.safeAreaInsets) {
    const { top, right, bottom, left } = context.safeAreaInsets;
    document.body.style.padding = `${top}px ${right}px ${bottom}px ${left}px`;
  }
}

async function main(): Promise<void> {
  const root = document.getElementById('view')!;
  const app = new App({ name: 'Paper Perps', version: '0.1.0' }, {}, { autoResize: true });
  const view = VIEWS[document.body.dataset['view'] ?? '']!(app, root);
  app.addEventListener('toolinput', (params) => view.input?.(params.arguments ?? {}));
  app.addEventListener('toolresult', (result) => view.result(result));
  app.addEventListener('hostcontextchanged', () => applyContext(app.getHostContext()));
  app.onteardown = async () => {
    view.dispose?.();
    return {};
  };
  await app.connect(new PostMessageTransport(window.parent, window.parent));
  applyContext(app.getHostContext());
}

void main();
