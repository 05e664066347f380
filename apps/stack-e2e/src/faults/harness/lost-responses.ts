import { mcpResource, TOOL_CATALOG } from '@paper/contracts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, type McpConnection } from '../../mcp/mcp-test-client';
import { callTool, connectTrader, type Trader, waitFor } from '../../tools/tool-test-kit';
import type { FaultLab } from './fault-lab';
import { type LossyProxy, type ProxiedRequest, startLossyProxy } from './lossy-proxy';

/** The tool API's writes, from the catalog. */
const WRITES = new Set(TOOL_CATALOG.filter((t) => !t.annotations.readOnlyHint).map((t) => t.name));
/** Answers after which a client waits and sends the same call again (nothing was done, or it is still running). */
const RETRYABLE = new Set(['idempotency_key_in_progress', 'rate_limited', 'exchange_unavailable']);
const MAX_ATTEMPTS = 40;

/** A write of the tool API, REST or MCP: whether the proxy may lose its answer. */
export function isWriteCall(req: ProxiedRequest): boolean {
  const rest = /^\/api\/v1\/me\/tools\/([a-z_]+)/.exec(req.path);
  if (rest) return WRITES.has(rest[1]!);
  if (req.method !== 'POST' || !req.path.startsWith('/mcp')) return false;
  try {
    const message = JSON.parse(req.body) as { method?: string; params?: { name?: string } };
    return message.method === 'tools/call' && WRITES.has(message.params?.name ?? '');
  } catch {
    return false;
  }
}

type Answer =
  { ok: true; data: Record<string, unknown> } | { ok: false; code: string; message: string; retryAfterMs: number };

interface Caller {
  trader: Trader;
  rest(name: string, args: Record<string, unknown>): Promise<Answer>;
  mcp(name: string, args: Record<string, unknown>): Promise<Answer>;
  close(): Promise<void>;
}

export interface LostResponsesReport {
  /** Writes the clients made (each until it was answered), opens among them, and through which transport. */
  operations: number;
  opens: number;
  closes: number;
  viaMcp: number;
  /** Calls sent in all, answers the proxy cut, and writes that needed more than one call. */
  attempts: number;
  lost: number;
  retried: number;
  wallets: string[];
  ms: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Traders open and close positions through a proxy that loses the answer of 1 in 3 write calls, half over
 * REST and half over MCP (the SDK client), each write with its own clientOrderId; a client that gets no
 * answer sends the same call again with the same key until it is answered, as an agent retrying does.
 */
export async function lostResponsesRun(
  lab: FaultLab,
  options: { operations: number; traders: number; seed: number },
): Promise<LostResponsesReport> {
  const proxy = await startLossyProxy({
    target: lab.stack.baseUrl,
    seed: options.seed,
    lossRate: 1 / 3,
    losable: isWriteCall,
  });
  const callers: Caller[] = [];
  const started = Date.now();
  const report = { operations: 0, opens: 0, closes: 0, viaMcp: 0, attempts: 0, retried: 0 };
  try {
    for (let i = 0; i < options.traders; i += 1) callers.push(await connectCaller(lab, proxy));
    const cycles = Math.ceil(options.operations / 2 / options.traders);
    const untilAnswered = async (send: () => Promise<Answer>): Promise<Record<string, unknown>> => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        report.attempts += 1;
        let answer: Answer;
        try {
          answer = await send();
        } catch {
          continue; // no answer: the same call again, with the same key
        }
        if (answer.ok) {
          if (attempt > 1) report.retried += 1;
          return answer.data;
        }
        if (!RETRYABLE.has(answer.code)) throw new Error(`refused: ${answer.code}: ${answer.message}`);
        await sleep(answer.retryAfterMs);
      }
      throw new Error(`no answer after ${MAX_ATTEMPTS} calls`);
    };
    await Promise.all(
      callers.map(async (caller, c) => {
        for (let i = 0; i < cycles; i += 1) {
          const viaMcp = (i + c) % 2 === 1;
          const send = (name: string, args: Record<string, unknown>) =>
            viaMcp ? caller.mcp(name, args) : caller.rest(name, args);
          const key = `${options.seed}-${c}-${i}`;
          const open = await untilAnswered(() =>
            send('open_position', {
              market: i % 2 === 0 ? 'BTC' : 'ETH',
              side: 'long',
              marginUsd: 10,
              leverage: 1000,
              clientOrderId: `${key}-open`,
            }),
          );
          const positionId = await openedPosition(lab, open);
          await untilAnswered(() =>
            send('close_positions', { positionIds: [positionId], clientOrderId: `${key}-close` }),
          );
          report.operations += 2;
          report.opens += 1;
          report.closes += 1;
          if (viaMcp) report.viaMcp += 2;
        }
      }),
    );
    return {
      ...report,
      lost: proxy.lost,
      wallets: callers.map((c) => c.trader.wallet),
      ms: Date.now() - started,
    };
  } finally {
    await Promise.all(callers.map((c) => c.close()));
    await proxy.close();
  }
}

/** The position an open answered, waiting for the fill when it was answered as pending. */
async function openedPosition(lab: FaultLab, open: Record<string, unknown>): Promise<string> {
  const position = open['position'] as { positionId: string } | null;
  if (position) return position.positionId;
  const intentId = open['intentId'] as string;
  return waitFor(`the fill of ${intentId}`, async () => {
    const status = await callTool(lab.stack.baseUrl, 'get_intent_status', { intentId });
    const ids = status.body.data?.['positionIds'] as string[] | undefined;
    return ids?.[0];
  });
}

async function connectCaller(lab: FaultLab, proxy: LossyProxy): Promise<Caller> {
  const trader = await connectTrader(lab.stack, lab.issuer, { guardrails: { requireConfirmation: false } });
  const token = await lab.issuer.mint({
    wallet: trader.wallet,
    sessionKey: trader.sessionKey,
    audience: mcpResource(lab.stack.baseUrl),
  });
  // Connecting is not a write: its answers are never lost.
  const connection: McpConnection = await connectMcp(proxy.url, { token });
  return {
    trader,
    rest: async (name, args) => {
      const res = await callTool(proxy.url, name, args, { token: trader.token });
      if (res.body.ok) return { ok: true, data: res.body.data! };
      const retryAfter = Number(res.headers.get('retry-after') ?? 1);
      return {
        ok: false,
        code: res.body.error!.code,
        message: res.body.error!.message,
        retryAfterMs: retryAfter * 1000,
      };
    },
    mcp: async (name, args) => {
      const result = (await connection.client.callTool({ name, arguments: args })) as CallToolResult;
      if (!result.isError) return { ok: true, data: result.structuredContent as Record<string, unknown> };
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      const [code = '', ...rest] = text.split(': ');
      return { ok: false, code, message: rest.join(': '), retryAfterMs: 1000 };
    },
    close: () => connection.close(),
  };
}
