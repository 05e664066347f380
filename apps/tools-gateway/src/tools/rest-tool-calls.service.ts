import { Inject, Injectable } from '@nestjs/common';
import { ToolErrorCode, type ToolDefinition } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import {
  AccessTokenVerifier,
  RateLimiter,
  ToolError,
  ToolExecutor,
  ToolResultCache,
  type ToolContext,
  anonymousContext,
  coerceQueryArgs,
  isPlainObject,
} from '@paper/tools-runtime';
import type { Request, Response } from 'express';
import type { ToolsGatewayConfig } from '../config/tools-gateway.config';

export type ArgsSource = { kind: 'query' } | { kind: 'body' };

interface ParsedCall {
  args: Record<string, unknown>;
  cacheKey: string;
}

const PARSED_QUERY_LIMIT = 2000;

/**
 * The REST transport of the tool runtime: per-caller rate limit, bearer verification on /me, argument
 * extraction (query strings coerced, JSON bodies optional as a whole), the shared 5-second cache of
 * public results, and the response headers.
 */
@Injectable()
export class RestToolCalls {
  private readonly parsedQueries = new Map<string, ParsedCall>();

  constructor(
    private readonly executor: ToolExecutor,
    private readonly cache: ToolResultCache,
    private readonly limiter: RateLimiter,
    private readonly verifier: AccessTokenVerifier,
    @Inject(APP_CONFIG) private readonly config: ToolsGatewayConfig,
  ) {}

  async publicCall(name: string, source: ArgsSource, req: Request, res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    await this.limitPublic(req);
    const tool = this.executor.resolve(name, 'public');
    const { args, cacheKey } = this.publicArgs(tool, source, req);
    const ctx = anonymousContext(callerIp(req));
    if (!tool.cacheable) {
      sendJson(res, 200, JSON.stringify(await this.executor.run(tool, args, ctx)));
      return;
    }
    const cached = await this.cache.getOrCompute(cacheKey, async () => JSON.stringify(await this.executor.run(tool, args, ctx)));
    const maxAge = Math.max(0, Math.ceil((cached.expiresAt - Date.now()) / 1000));
    res.setHeader('Cache-Control', `public, max-age=${maxAge}`);
    res.setHeader('X-Cache', cached.hit ? 'HIT' : 'MISS');
    sendJson(res, 200, cached.body);
  }

  async meCall(name: string, source: ArgsSource, req: Request, res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'private, no-store');
    const ctx = await this.meContext(req);
    const tool = this.executor.resolve(name, 'me');
    if (source.kind === 'query' && tool.family === 'me-only') {
      throw new ToolError(
        ToolErrorCode.MethodNotAllowed,
        `${tool.name} changes your account, so it only runs by POST /api/v1/me/tools/${tool.name} with a JSON body (GET is only for the read tools).`,
        { Allow: 'POST, OPTIONS' },
      );
    }
    this.executor.authorize(tool, ctx);
    const args = this.executor.parse(tool, this.rawArgs(tool, source, req));
    sendJson(res, 200, JSON.stringify(await this.executor.run(tool, args, ctx)));
  }

  /** Verifies the bearer token and applies the per-subject rate limit. */
  async meContext(req: Request): Promise<ToolContext> {
    const token = await this.verifier.verifyHeader(req.headers.authorization);
    const callerId = `sub:${token.wallet}:${token.clientId ?? '-'}`;
    await this.limiter.take(callerId, { perSecond: this.config.RATE_LIMIT_ME_PER_SECOND, burst: this.config.RATE_LIMIT_ME_BURST });
    return { family: 'me', wallet: token.wallet, scopes: token.scopes, sessionKey: token.sessionKey, clientId: token.clientId, callerId };
  }

  async limitPublic(req: Request): Promise<void> {
    await this.limiter.take(`ip:${callerIp(req)}`, { perSecond: this.config.RATE_LIMIT_PUBLIC_PER_SECOND, burst: this.config.RATE_LIMIT_PUBLIC_BURST });
  }

  /**
   * Validated arguments and cache key of a public call. Query strings that validated before are looked up
   * instead of parsed again (bounded memo; arguments are never mutated).
   */
  private publicArgs(tool: ToolDefinition, source: ArgsSource, req: Request): ParsedCall {
    if (source.kind === 'body') {
      const args = this.executor.parse(tool, this.rawArgs(tool, source, req));
      return { args, cacheKey: this.cache.key(tool.name, args) };
    }
    const question = req.url.indexOf('?');
    const memoKey = `${tool.name}?${question === -1 ? '' : req.url.slice(question + 1)}`;
    const known = this.parsedQueries.get(memoKey);
    if (known) return known;
    const args = this.executor.parse(tool, this.rawArgs(tool, source, req));
    const parsed = { args, cacheKey: this.cache.key(tool.name, args) };
    if (this.parsedQueries.size >= PARSED_QUERY_LIMIT) this.parsedQueries.clear();
    this.parsedQueries.set(memoKey, parsed);
    return parsed;
  }

  private rawArgs(tool: ToolDefinition, source: ArgsSource, req: Request): unknown {
    if (source.kind === 'query') return coerceQueryArgs(tool, req.query as Record<string, string | string[]>);
    const length = Number(req.headers['content-length'] ?? 0);
    if (req.body === undefined && (length > 0 || req.headers['transfer-encoding'])) {
      throw new ToolError(ToolErrorCode.InvalidArguments, `Send the arguments of ${tool.name} as a JSON object with "Content-Type: application/json" (or send no body).`);
    }
    if (req.body !== undefined && !isPlainObject(req.body)) {
      throw new ToolError(ToolErrorCode.InvalidArguments, `The body of ${tool.name} must be a JSON object such as {"name": value}.`);
    }
    return req.body;
  }
}

export function callerIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

export function sendJson(res: Response, status: number, body: string): void {
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(body);
}
