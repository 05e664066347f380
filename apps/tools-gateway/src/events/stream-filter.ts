import {
  type ExchangeEvent,
  EXCHANGE_EVENT_TYPES,
  type ExchangeEventType,
  LIVE_EVENT_TYPES,
  type MarketName,
  MARKET_NAMES,
  PUBLIC_EVENT_TYPES,
  WALLET_PATTERN,
} from '@paper/contracts';
import { ToolError } from '@paper/tools-runtime';
import { ToolErrorCode } from '@paper/contracts';

/** What one stream client receives. */
export interface StreamFilter {
  /** Logged event types it receives. */
  readonly types: ReadonlySet<ExchangeEventType>;
  /** Whether it receives live `price` events. */
  readonly prices: boolean;
  readonly wallet?: string;
  readonly market?: MarketName;
}

const QUERY_KEYS = new Set(['types', 'market', 'wallet', 'lastEventId']);

function invalid(message: string): ToolError {
  return new ToolError(ToolErrorCode.InvalidArguments, message);
}

function single(query: Record<string, unknown>, key: string): string | undefined {
  const value = query[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`"${key}" must be given once, as a string.`);
  return value;
}

/**
 * The filter of a stream request: `types` (comma list), `market`, `wallet` (public stream only: the
 * public activity of one address). The public stream carries trades, market status and prices; the
 * connected wallet's stream carries every event of that wallet (and no prices).
 */
export function streamFilter(query: Record<string, unknown>, scope: { connectedWallet?: string }): StreamFilter {
  for (const key of Object.keys(query))
    if (!QUERY_KEYS.has(key)) throw invalid(`Unknown parameter "${key}". Allowed: types, market, wallet, lastEventId.`);
  const own = scope.connectedWallet !== undefined;
  const allowed: readonly string[] = own ? EXCHANGE_EVENT_TYPES : [...PUBLIC_EVENT_TYPES, ...LIVE_EVENT_TYPES];
  const typesText = single(query, 'types');
  const requested =
    typesText === undefined
      ? allowed
      : typesText
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
  for (const t of requested)
    if (!allowed.includes(t))
      throw invalid(`"types" may list ${allowed.join(', ')}; "${t.slice(0, 40)}" is not one of them.`);
  if (requested.length === 0) throw invalid('"types" must name at least one event type.');
  const market = single(query, 'market');
  if (market !== undefined && !(MARKET_NAMES as readonly string[]).includes(market))
    throw invalid(`"market" must be one of ${MARKET_NAMES.join(', ')}.`);
  const wallet = single(query, 'wallet');
  if (wallet !== undefined && (own || !WALLET_PATTERN.test(wallet))) {
    throw invalid(
      own
        ? '"wallet" is not a filter of /api/v1/me/events: it carries the connected wallet.'
        : '"wallet" must be a 0x address of 40 hex digits.',
    );
  }
  return {
    types: new Set(requested.filter((t): t is ExchangeEventType => t !== 'price')),
    prices: requested.includes('price'),
    wallet: (scope.connectedWallet ?? wallet)?.toLowerCase(),
    market: market as MarketName | undefined,
  };
}

export function matches(filter: StreamFilter, event: ExchangeEvent): boolean {
  return (
    filter.types.has(event.type) &&
    (filter.wallet === undefined || event.wallet === filter.wallet) &&
    (filter.market === undefined || event.market === filter.market)
  );
}

/** The cursor a client resumes after: the `Last-Event-ID` header, else the `lastEventId` query parameter. */
export function resumeCursor(
  header: string | string[] | undefined,
  query: Record<string, unknown>,
): string | undefined {
  const value = typeof header === 'string' && header !== '' ? header : single(query, 'lastEventId');
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,19}$/.test(value))
    throw invalid('Last-Event-ID (or lastEventId) must be an event id: a string of digits.');
  return value;
}
