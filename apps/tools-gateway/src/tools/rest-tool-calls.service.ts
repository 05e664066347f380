import { Inject, Injectable } from '@nestjs/common';
import { CLIENT_KEY_PATTERN, PUBLIC_CACHE_SECONDS, ToolErrorCode, type ToolDefinition } from '@paper/contracts';
import { IDEMPOTENCY_HEADER } from '@paper/idempotency';
import { APP_CONFIG, clientIp } from '@paper/nest-infra';
import {
  AccessTokenVerifier,
  type CacheEntry,
  type RateLimit,
  RateLimiter,
  ToolError,
  ToolExecutor,
  ToolResultCache,
  type TokenContext,
  anonymousContext,
  coerceQueryArgs,
  tokenContext,
  isPlainObject,
  REPLAYED_HEADER,
  toolRateLimits,
} from '@paper/tools-runtime';
import type { Request, Response } from 'express';
import type { ToolsGatewayConfig } from '../config/tools-gateway.config';

export type ArgsSource = { kind: 'query' } | { kind: 'body' };

/** A validated public call: the tool, its arguments (defaults applied) and its cache key. */
interface PublicCall {
  tool: ToolDefinition;
  args: Record<string, unknown>;
  cacheKey: string;
}

const PARSED_QUERY_LIMIT = 2000;
const JSON_TYPE = 'application/json; charset=utf-8';
/** `Cache-Control` of a cached answer by whole seconds left, built once. */
const CACHE_CONTROL = Array.from({ length: PUBLIC_CACHE_SECONDS + 1 }, (_, seconds) => `public, max-age=${seconds}`);

/**
 * The REST transport of the tool runtime: per-caller rate limit, bearer verification on /me, argument
 * extraction (query strings coerced, JSON bodies optional as a whole), the shared 5-second cache of
 * public results, and the response headers. A cached public GET is the hot path: a leased rate-limit
 * token, one lookup of the validated query string, one lookup of the local cache copy, and the stored
 * bytes sent as they are.
 */
@Injectable()
export class RestToolCalls {
  private readonly queryCalls = new Map<string, PublicCall>();
  private readonly publicLimit: RateLimit;
  private readonly meLimit: RateLimit;

  constructor(
    private readonly executor: ToolExecutor,
    private readonly cache: ToolResultCache,
    private readonly limiter: RateLimiter,
    private readonly verifier: AccessTokenVerifier,
    @Inject(APP_CONFIG) config: ToolsGatewayConfig,
  ) {
    ({ public: this.publicLimit, me: this.meLimit } = toolRateLimits(config));
  }

  async publicCall(name: string, source: ArgsSource, req: Request, res: Response): Promise<void> {
    try {
      const ip = clientIp(req);
      const limiting = this.limiter.spend(`ip:${ip}`, this.publicLimit);
      if (limiting) await limiting;
      const call = source.kind === 'query' ? this.queryCall(name, req) : this.bodyCall(name, req);
      if (!call.tool.cacheable) {
        res.setHeader('Cache-Control', 'no-store');
        sendJson(res, 200, JSON.stringify(await this.executor.run(call.tool, call.args, anonymousContext(ip))));
        return;
      }
      const cached = await this.cache.getOrCompute(call.cacheKey, async () =>
        JSON.stringify(await this.executor.run(call.tool, call.args, anonymousContext(ip))),
      );
      sendCached(res, cached, cached.hit ? 'HIT' : 'MISS');
    } catch (error) {
      if (!res.headersSent) res.setHeader('Cache-Control', 'no-store');
      throw error;
    }
  }

  /**
   * Answers a public GET from this replica's copy of the shared cache when that needs nothing else: its
   * query string validated before, the copy has not expired, and the caller holds a leased rate-limit
   * token. Returns false (having sent nothing) when the full path must run; it then gives the same answer.
   */
  tryServeCached(req: Request, res: Response): boolean {
    const call = this.queryCalls.get(req.url);
    if (call === undefined || !call.tool.cacheable) return false;
    const hit = this.cache.peek(call.cacheKey);
    if (hit === undefined || !this.limiter.trySpend(`ip:${clientIp(req)}`)) return false;
    sendCached(res, hit, 'HIT');
    return true;
  }

  async meCall(name: string, source: ArgsSource, req: Request, res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'private, no-store');
    const ctx = await this.meContext(req);
    const tool = this.executor.resolve(name, 'me');
    if (source.kind === 'query' && tool.family === 'me-only') {
      throw new ToolError(
        ToolErrorCode.MethodNotAllowed,
        `${tool.name} changes your account, so it only runs by POST /api/v1/me/tools/${tool.name} with a JSON body ` +
          `(GET is only for the read tools).`,
        { Allow: 'POST, OPTIONS' },
      );
    }
    await this.executor.authorizeCall(tool, ctx);
    const args = this.executor.parse(tool, withHeaderKey(tool, this.rawArgs(tool, source, req), req));
    const result = await this.executor.run(tool, args, ctx);
    if (result.replayed) res.setHeader(REPLAYED_HEADER, 'true');
    sendJson(res, 200, JSON.stringify(result));
  }

  /** Verifies the bearer token and applies the per-subject rate limit. */
  async meContext(req: Request): Promise<TokenContext> {
    const ctx = tokenContext(await this.verifier.verifyHeader(req.headers.authorization));
    const limiting = this.limiter.spend(ctx.callerId, this.meLimit);
    if (limiting) await limiting;
    return ctx;
  }

  async limitPublic(req: Request): Promise<void> {
    await this.limiter.spend(`ip:${clientIp(req)}`, this.publicLimit);
  }

  /**
   * A public call by query string. Query strings that validated before are looked up by the request URL
   * (which names the tool) instead of being resolved and parsed again (bounded memo; never mutated).
   */
  private queryCall(name: string, req: Request): PublicCall {
    const known = this.queryCalls.get(req.url);
    if (known) return known;
    const tool = this.executor.resolve(name, 'public');
    const args = this.executor.parse(tool, this.rawArgs(tool, { kind: 'query' }, req));
    const call = { tool, args, cacheKey: this.cache.key(tool.name, args) };
    if (this.queryCalls.size >= PARSED_QUERY_LIMIT) this.queryCalls.clear();
    this.queryCalls.set(req.url, call);
    return call;
  }

  private bodyCall(name: string, req: Request): PublicCall {
    const tool = this.executor.resolve(name, 'public');
    const args = this.executor.parse(tool, this.rawArgs(tool, { kind: 'body' }, req));
    return { tool, args, cacheKey: this.cache.key(tool.name, args) };
  }

  private rawArgs(tool: ToolDefinition, source: ArgsSource, req: Request): unknown {
    if (source.kind === 'query') return coerceQueryArgs(tool, req.query as Record<string, string | string[]>);
    const length = Number(req.headers['content-length'] ?? 0);
    if (req.body === undefined && (length > 0 || req.headers['transfer-encoding'])) {
      throw new ToolError(
        ToolErrorCode.InvalidArguments,
        `Send the arguments of ${tool.name} as a JSON object with "Content-Type: application/json" (or send no body).`,
      );
    }
    if (req.body !== undefined && !isPlainObject(req.body)) {
      throw new ToolError(
        ToolErrorCode.InvalidArguments,
        `The body of ${tool.name} must be a JSON object such as {"name": value}.`,
      );
    }
    return req.body;
  }
}

/**
 * A write's `Idempotency-Key` header as its `clientOrderId` argument (the same key; when both are sent they must be
 * equal). Read tools ignore the header: they change nothing.
 */
function withHeaderKey(tool: ToolDefinition, raw: unknown, req: Request): unknown {
  const header = req.headers[IDEMPOTENCY_HEADER];
  if (header === undefined || tool.annotations.readOnlyHint) return raw;
  if (typeof header !== 'string' || !CLIENT_KEY_PATTERN.test(header))
    throw new ToolError(ToolErrorCode.InvalidArguments, 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  const args = (raw ?? {}) as Record<string, unknown>;
  if (args['clientOrderId'] !== undefined && args['clientOrderId'] !== header)
    throw new ToolError(
      ToolErrorCode.InvalidArguments,
      'The Idempotency-Key header and the clientOrderId argument are the same key: send one, or both equal.',
    );
  return { ...args, clientOrderId: header };
}

export function sendJson(res: Response, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.end(body);
}

/** Sends a cached envelope: its stored bytes, with the seconds it has left as `max-age`. */
function sendCached(res: Response, entry: CacheEntry, cache: 'HIT' | 'MISS', now = Date.now()): void {
  const secondsLeft = Math.min(PUBLIC_CACHE_SECONDS, Math.max(0, Math.ceil((entry.expiresAt - now) / 1000)));
  res.statusCode = 200;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Cache-Control', CACHE_CONTROL[secondsLeft]!);
  res.setHeader('X-Cache', cache);
  res.end(entry.body);
}
