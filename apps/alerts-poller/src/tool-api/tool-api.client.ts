import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, metricsRegistry } from '@paper/nest-infra';
import { Counter } from 'prom-client';
import type { AlertsPollerConfig } from '../config/alerts-poller.config';
import type {
  AccountData,
  EventsData,
  LeaderboardData,
  MarketsData,
  ProtocolStatsData,
  RecentTradesData,
} from './tool-data';

/** A tool call that did not produce a successful result (network, status, envelope `ok: false`). */
export class ToolApiError extends Error {
  constructor(
    readonly tool: string,
    message: string,
    readonly status?: number,
  ) {
    super(`${tool}: ${message}`);
    this.name = 'ToolApiError';
  }
}

const toolCalls = new Counter({
  name: 'alerts_poller_tool_calls_total',
  help: 'Tool API calls by tool and outcome',
  labelNames: ['tool', 'outcome'],
  registers: [metricsRegistry],
});

/**
 * Reads the public family of the exchange tool API (`GET /api/v1/tools/{name}?args`), paced to
 * ALERTS_TOOL_CALLS_PER_SECOND so the poller stays inside the API's per-caller rate limit.
 */
@Injectable()
export class ToolApiClient {
  private nextSlot = 0;
  private calls = 0;

  constructor(
    @Inject(APP_CONFIG)
    private readonly config: Pick<
      AlertsPollerConfig,
      'EXCHANGE_API_URL' | 'ALERTS_TOOL_TIMEOUT_MS' | 'ALERTS_TOOL_CALLS_PER_SECOND'
    >,
  ) {}

  /** Calls made since start (benchmarks and poll statistics read it). */
  get callCount(): number {
    return this.calls;
  }

  recentTrades(args: { market?: string; wallet?: string } = {}): Promise<RecentTradesData> {
    return this.call<RecentTradesData>('get_recent_trades', args);
  }

  account(wallet: string): Promise<AccountData> {
    return this.call<AccountData>('get_account', { wallet });
  }

  /** A page of the public event log after a cursor (trades and market status, oldest first). */
  events(after: string, limit: number): Promise<EventsData> {
    return this.call<EventsData>('get_events', { after, limit });
  }

  markets(): Promise<MarketsData> {
    return this.call<MarketsData>('get_markets', {});
  }

  /** One page (25 rows) of every trader the exchange has seen, in address order, with their open-position count. */
  tradersByAddress(page: number): Promise<LeaderboardData> {
    return this.call<LeaderboardData>('get_leaderboard', { window: 'all', sortKey: 'address', sortDir: 'asc', page });
  }

  protocolStats(): Promise<ProtocolStatsData> {
    return this.call<ProtocolStatsData>('get_protocol_stats', { days: 1 });
  }

  private async pace(): Promise<void> {
    const spacing = 1000 / this.config.ALERTS_TOOL_CALLS_PER_SECOND;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + spacing;
    if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
  }

  async call<T>(tool: string, args: Record<string, string | number | undefined>): Promise<T> {
    await this.pace();
    this.calls += 1;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(args)) if (value !== undefined) params.set(key, String(value));
    const query = params.toString();
    const url = `${this.config.EXCHANGE_API_URL.replace(/\/+$/, '')}/api/v1/tools/${tool}${query ? `?${query}` : ''}`;
    let response: Response;
    let body: { ok?: boolean; data?: T; error?: { code?: string; message?: string } };
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'paper-alerts-poller/1' },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.ALERTS_TOOL_TIMEOUT_MS),
      });
      body = (await response.json()) as typeof body;
    } catch (error) {
      toolCalls.inc({ tool, outcome: 'network' });
      throw new ToolApiError(tool, `no usable answer (${(error as Error).message})`);
    }
    if (!response.ok || body.ok !== true || typeof body.data !== 'object' || body.data === null) {
      toolCalls.inc({ tool, outcome: 'error' });
      const reason = body.error ? `${body.error.code}: ${body.error.message}` : 'unexpected answer';
      throw new ToolApiError(tool, `answered ${response.status} (${reason})`, response.status);
    }
    toolCalls.inc({ tool, outcome: 'ok' });
    return body.data;
  }
}
