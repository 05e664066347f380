import { Inject, Injectable } from '@nestjs/common';
import { AlertsErrorCode, GET_TRADING_PERMISSIONS, publicTools, type ToolDefinition } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import { AlertsException } from '@paper/alerts-accounts';
import type { AlertsApiConfig } from '../config/alerts-api.config';

/**
 * The exchange tools the proxy and the MCP `exchange_*` tools may call: the public family of the tool
 * catalog (all read-only), except the report on the caller's own connection, which means nothing
 * through a proxy that holds no token.
 */
export const PROXIED_EXCHANGE_TOOLS: readonly ToolDefinition[] = publicTools().filter(
  (tool) => tool.name !== GET_TRADING_PERMISSIONS.name,
);

/** Their names. */
export const PUBLIC_EXCHANGE_TOOLS: readonly string[] = PROXIED_EXCHANGE_TOOLS.map((tool) => tool.name);

export type UpstreamPath = 'tools' | 'openapi.json' | `tools/${string}`;

export interface UpstreamResponse {
  status: number;
  contentType: string;
  cacheControl: string | null;
  body: Buffer;
}

const MAX_BODY_BYTES = 2 * 1024 * 1024;

function unavailable(detail: string): AlertsException {
  return new AlertsException(
    AlertsErrorCode.UpstreamUnavailable,
    `The exchange API is not available right now (${detail}). Retry shortly.`,
  );
}

/**
 * Reads a body while it streams in and aborts the request as soon as it passes `max` bytes (a declared
 * content-length over the limit aborts before reading), so an oversized answer is never buffered whole.
 */
async function readBounded(response: Response, max: number, abort: AbortController): Promise<Buffer> {
  const tooLarge = () => {
    abort.abort();
    return unavailable(`answer larger than ${max} bytes`);
  };
  if (Number(response.headers.get('content-length') ?? 0) > max) throw tooLarge();
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
}

/**
 * GETs from the exchange tool API's public family: no client headers, cookies or credentials are
 * forwarded, only the caller's address as `X-Forwarded-For` (the exchange limits each caller, and trusts
 * this service as a proxy when its address is in the exchange's TRUSTED_PROXIES); redirects are not followed, answers
 * are bounded in time and in size (enforced while streaming). 2xx and 4xx answers pass through; 3xx, 5xx, timeouts and
 * network failures become 502 `upstream_unavailable`.
 */
@Injectable()
export class UpstreamClient {
  constructor(@Inject(APP_CONFIG) private readonly config: AlertsApiConfig) {}

  isPublicTool(name: string): boolean {
    return PUBLIC_EXCHANGE_TOOLS.includes(name);
  }

  async get(path: UpstreamPath, search: string, callerIp: string): Promise<UpstreamResponse> {
    const base = this.config.EXCHANGE_API_URL.replace(/\/+$/, '');
    const url = `${base}${path === 'openapi.json' ? '/openapi.json' : `/api/v1/${path}`}${search.length > 1 ? search : ''}`;
    const abort = new AbortController();
    let response: Response;
    let body: Buffer;
    try {
      response = await fetch(url, {
        method: 'GET',
        redirect: 'manual',
        headers: { accept: 'application/json', 'user-agent': 'paper-alerts-proxy/1', 'x-forwarded-for': callerIp },
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(this.config.UPSTREAM_TIMEOUT_MS)]),
      });
      body = await readBounded(response, MAX_BODY_BYTES, abort);
    } catch (error) {
      if (error instanceof AlertsException) throw error;
      const name = (error as Error).name;
      throw unavailable(
        name === 'TimeoutError' || name === 'AbortError'
          ? `no answer within ${this.config.UPSTREAM_TIMEOUT_MS} ms`
          : 'connection failed',
      );
    }
    if (response.status >= 500 || response.status < 200 || (response.status >= 300 && response.status < 400)) {
      throw unavailable(`it answered ${response.status}`);
    }
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? 'application/json',
      cacheControl: response.headers.get('cache-control'),
      body,
    };
  }

  /** Runs a public tool with query-string arguments for the caller at `callerIp` and returns its result envelope. */
  async callTool(name: string, args: Record<string, unknown>, callerIp: string): Promise<Record<string, unknown>> {
    if (!this.isPublicTool(name))
      throw new AlertsException(AlertsErrorCode.NotFound, `${name} is not a public read-only exchange tool.`);
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(args)) {
      if (value !== undefined && value !== null) params.set(key, String(value));
    }
    const query = params.toString();
    const response = await this.get(`tools/${name}`, query ? `?${query}` : '', callerIp);
    try {
      return JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw unavailable('its answer was not JSON');
    }
  }
}
