import { Inject, Injectable } from '@nestjs/common';
import {
  GET_ACCOUNT,
  GET_EVENTS,
  GET_LEADERBOARD,
  GET_MARKETS,
  GET_PROTOCOL_STATS,
  GET_RECENT_TRADES,
  type ToolData,
  type ToolDefinition,
  toolFailureSchema,
  toolSuccessSchema,
} from '@paper/contracts';
import { APP_CONFIG, metricsRegistry } from '@paper/nest-infra';
import { Counter } from 'prom-client';
import { z } from 'zod';
import type { AlertsPollerConfig } from '../config/alerts-poller.config';
import type {
  AccountData,
  EventsData,
  LeaderboardData,
  MarketsData,
  ProtocolStatsData,
  RecentTradesData,
} from './tool-data';

/**
 * A tool call that did not produce a usable result: no answer (network, not JSON), a refusal (status,
 * envelope `ok: false`), or an answer whose `data` does not match the tool's output schema.
 */
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

/** `network`: no usable answer; `error`: a refusal; `invalid`: an answer that does not match the catalog. */
type CallOutcome = 'ok' | 'network' | 'error' | 'invalid';

const toolCalls = new Counter<'tool' | 'outcome'>({
  name: 'alerts_poller_tool_calls_total',
  help: 'Tool API calls by tool and outcome (ok, network, error, invalid)',
  labelNames: ['tool', 'outcome'],
  registers: [metricsRegistry],
});

/** The query arguments of a tool: its catalog input (defaults may be left out), string and number values only. */
export type ToolArgs<T extends ToolDefinition, I = z.input<T['inputSchema']>> = {
  [K in keyof I]: Extract<I[K], string | number | undefined>;
};

/** The first failing path of a zod error and its message (`positions.0.bustPrice: Invalid input: ...`). */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unknown mismatch';
  const path = issue.path.map(String).join('.');
  return `${path || '(root)'}: ${issue.message}`;
}

/**
 * Reads the public family of the exchange tool API (`GET /api/v1/tools/{name}?args`), paced to
 * ALERTS_TOOL_CALLS_PER_SECOND so the poller stays inside the API's per-caller rate limit. Every answer is
 * parsed with the envelope schema and the tool's catalog output schema before the poller uses it.
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

  recentTrades(args: ToolArgs<typeof GET_RECENT_TRADES> = {}): Promise<RecentTradesData> {
    return this.call(GET_RECENT_TRADES, args);
  }

  account(wallet: string): Promise<AccountData> {
    return this.call(GET_ACCOUNT, { wallet });
  }

  /** A page of the public event log after a cursor (trades and market status, oldest first). */
  events(after: string, limit: number): Promise<EventsData> {
    return this.call(GET_EVENTS, { after, limit });
  }

  markets(): Promise<MarketsData> {
    return this.call(GET_MARKETS, {});
  }

  /** One page (25 rows) of every trader the exchange has seen, in address order, with their open-position count. */
  tradersByAddress(page: number): Promise<LeaderboardData> {
    return this.call(GET_LEADERBOARD, { window: 'all', sortKey: 'address', sortDir: 'asc', page });
  }

  protocolStats(): Promise<ProtocolStatsData> {
    return this.call(GET_PROTOCOL_STATS, { days: 1 });
  }

  private async pace(): Promise<void> {
    const spacing = 1000 / this.config.ALERTS_TOOL_CALLS_PER_SECOND;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + spacing;
    if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
  }

  /**
   * Calls a public tool and returns its `data` parsed with the tool's catalog output schema. The catalog's
   * output objects accept fields they do not name (loose at the top, stripped inside), so an exchange that
   * adds a field keeps working; a missing or mistyped field is a ToolApiError (outcome `invalid`).
   */
  async call<T extends ToolDefinition>(tool: T, args: ToolArgs<T>): Promise<ToolData<T>> {
    const name = tool.name;
    await this.pace();
    this.calls += 1;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(args)) if (value !== undefined) params.set(key, String(value));
    const query = params.toString();
    const url = `${this.config.EXCHANGE_API_URL.replace(/\/+$/, '')}/api/v1/tools/${name}${query ? `?${query}` : ''}`;
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'paper-alerts-poller/1' },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.ALERTS_TOOL_TIMEOUT_MS),
      });
      body = await response.json();
    } catch (error) {
      throw this.failed(name, 'network', `no usable answer (${(error as Error).message})`);
    }
    const failure = toolFailureSchema.safeParse(body);
    if (!response.ok || failure.success) {
      const reason = failure.success
        ? `${failure.data.error.code}: ${failure.data.error.message}`
        : 'unexpected answer';
      throw this.failed(name, 'error', `answered ${response.status} (${reason})`, response.status);
    }
    const envelope = toolSuccessSchema.safeParse(body);
    if (!envelope.success)
      throw this.failed(name, 'invalid', `answer is not a tool result at ${firstIssue(envelope.error)}`);
    const data = z.safeParse<T['outputSchema']>(tool.outputSchema, envelope.data.data);
    if (!data.success)
      throw this.failed(name, 'invalid', `data does not match the catalog at ${firstIssue(data.error)}`);
    toolCalls.inc({ tool: name, outcome: 'ok' });
    return data.data;
  }

  private failed(tool: string, outcome: Exclude<CallOutcome, 'ok'>, message: string, status?: number): ToolApiError {
    toolCalls.inc({ tool, outcome });
    return new ToolApiError(tool, message, status);
  }
}
