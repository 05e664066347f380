import { Inject, Injectable } from '@nestjs/common';
import { ToolErrorCode, findTool, isCodedError } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import {
  AccessTokenVerifier,
  RateLimiter,
  type RateLimit,
  ToolExecutor,
  type ToolContext,
  anonymousContext,
  tokenContext,
  toolRateLimits,
} from '@paper/tools-runtime';
import type { McpServerConfig } from '../config/mcp-server.config';
import { MCP_CHALLENGE_SCOPE, mcpBearerChallenge, needsConnectedWallet, scopesFor } from './mcp-challenge';

export type JsonRpcId = string | number | null;

/** The request may go to the MCP server, acting in this context. */
export interface Proceed {
  kind: 'proceed';
  ctx: ToolContext;
}

/**
 * The request is answered at the HTTP level: 401/403 with a Bearer challenge, 429 over the rate limit, or 502 when
 * tokens cannot be checked.
 */
export interface Refusal {
  kind: 'refuse';
  status: number;
  code: string;
  message: string;
  headers: Record<string, string>;
  id: JsonRpcId;
}

type Caller = { kind: 'anonymous' } | { kind: 'token'; ctx: ToolContext } | (Omit<Refusal, 'id'> & { kind: 'refuse' });

interface CallMessage {
  id: JsonRpcId;
  name: string;
  args: unknown;
}

/**
 * Decides, before the request reaches the MCP server, what HTTP answer clients need. Every POST counts
 * against the per-caller rate limit (the token's wallet and client, or the client address), whatever its
 * method (initialize, tools/list, tools/call): over it, 429 with Retry-After. A presented token that does
 * not verify gets 401 `invalid_token`; without a token, a tools/call that needs the connected wallet (see
 * needsConnectedWallet) gets 401 with the challenge that starts OAuth; a token lacking the tool's scope
 * gets 403 `insufficient_scope` (the client's request for the scope recorded first, so its next refresh
 * leads it to a new authorization: scope-step-ups.ts). Everything else proceeds, with the wallet of the token (family
 * `me`) or anonymously (family `public`).
 */
@Injectable()
export class McpAccessGate {
  private readonly publicLimit: RateLimit;
  private readonly meLimit: RateLimit;

  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly executor: ToolExecutor,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: McpServerConfig,
  ) {
    ({ public: this.publicLimit, me: this.meLimit } = toolRateLimits(config));
  }

  async check(
    authorization: string | undefined,
    callerIp: string,
    messages: readonly unknown[],
  ): Promise<Proceed | Refusal> {
    const calls = messages.map(toolCall).filter((c): c is CallMessage => c !== undefined);
    const firstId = calls[0]?.id ?? requestId(messages[0]);
    const caller = await this.caller(authorization);
    const limited = await this.limit(caller, callerIp, firstId, Math.max(1, messages.length));
    if (limited) return limited;
    if (caller.kind === 'refuse') return { ...caller, id: firstId };
    if (caller.kind === 'anonymous') return this.anonymous(callerIp, calls);
    const ctx = caller.ctx;
    for (const call of calls) {
      const tool = findTool(call.name);
      if (!tool) continue;
      try {
        await this.executor.authorizeCall(tool, ctx);
      } catch (error) {
        if (!isCodedError(error) || error.code !== ToolErrorCode.InsufficientScope) throw error;
        const challenge = mcpBearerChallenge(this.config.PUBLIC_BASE_URL, {
          error: 'insufficient_scope',
          scope: MCP_CHALLENGE_SCOPE,
        });
        return {
          kind: 'refuse',
          status: 403,
          code: error.code,
          message: error.message,
          headers: { 'WWW-Authenticate': challenge },
          id: call.id,
        };
      }
    }
    return { kind: 'proceed', ctx };
  }

  /** Who is calling: nobody in particular (no token), the token's wallet, or a refusal of the token. */
  private async caller(authorization: string | undefined): Promise<Caller> {
    if (authorization === undefined) return { kind: 'anonymous' };
    try {
      return { kind: 'token', ctx: tokenContext(await this.verifier.verifyHeader(authorization)) };
    } catch (error) {
      if (!isCodedError(error)) throw error;
      const headers = { ...error.headers };
      if (error.status === 401) {
        headers['WWW-Authenticate'] = mcpBearerChallenge(this.config.PUBLIC_BASE_URL, {
          error: 'invalid_token',
          description: error.message,
          scope: MCP_CHALLENGE_SCOPE,
        });
      }
      return { kind: 'refuse', status: error.status, code: error.code, message: error.message, headers };
    }
  }

  /**
   * One request of the caller's rate limit per JSON-RPC message (a batch costs what its messages would
   * cost one by one), per wallet and client with a valid token, else per client address.
   */
  private async limit(caller: Caller, callerIp: string, id: JsonRpcId, messages: number): Promise<Refusal | undefined> {
    const [key, limit] =
      caller.kind === 'token' ? [caller.ctx.callerId, this.meLimit] : [`ip:${callerIp}`, this.publicLimit];
    try {
      for (let i = 0; i < messages; i += 1) {
        const limiting = this.limiter.spend(key, limit);
        if (limiting) await limiting;
      }
      return undefined;
    } catch (error) {
      if (!isCodedError(error) || error.code !== ToolErrorCode.RateLimited) throw error;
      return {
        kind: 'refuse',
        status: error.status,
        code: error.code,
        message: error.message,
        headers: { ...error.headers },
        id,
      };
    }
  }

  private anonymous(callerIp: string, calls: CallMessage[]): Proceed | Refusal {
    for (const call of calls) {
      const tool = findTool(call.name);
      if (!tool || !needsConnectedWallet(tool, call.args)) continue;
      const scope = scopesFor(tool);
      const message =
        tool.family === 'me-only'
          ? `${tool.name} acts on your funds and needs this client to be connected to your wallet (OAuth, scope ${scope}). Connect, then call it again.`
          : `${tool.name} without "wallet" shows the connected wallet, and no wallet is connected: pass "wallet" (a 0x address of 40 hex digits) to inspect any wallet, or connect this client to your wallet (OAuth) and call it again.`;
      return {
        kind: 'refuse',
        status: 401,
        code: ToolErrorCode.Unauthorized,
        message,
        headers: {
          'WWW-Authenticate': mcpBearerChallenge(this.config.PUBLIC_BASE_URL, { scope: MCP_CHALLENGE_SCOPE }),
        },
        id: call.id,
      };
    }
    return { kind: 'proceed', ctx: anonymousContext(callerIp) };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requestId(message: unknown): JsonRpcId {
  const id = isObject(message) ? message['id'] : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The tools/call requests of a body (name and arguments), if any. */
function toolCall(message: unknown): CallMessage | undefined {
  if (!isObject(message) || message['method'] !== 'tools/call' || !isObject(message['params'])) return undefined;
  const name = message['params']['name'];
  if (typeof name !== 'string') return undefined;
  return { id: requestId(message), name, args: message['params']['arguments'] };
}
