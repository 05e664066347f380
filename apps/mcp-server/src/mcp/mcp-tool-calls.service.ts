import { Injectable, Logger } from '@nestjs/common';
import { type CallToolResult, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { TOOL_CATALOG, ToolErrorCode, type ToolSuccess, isCodedError } from '@paper/contracts';
import { ToolExecutor, ToolResultCache, type ToolContext } from '@paper/tools-runtime';
import { errorResult, successResult } from './mcp-tool-result';
import { serialisedOnce } from '@paper/nest-infra';

const INTERNAL_ERROR = 'Something went wrong on our side. Please try again shortly.';
/** Results of cached answers kept ready to send (as objects and as JSON), by cached body. */
const READY_RESULTS = 256;

/**
 * tools/call of the MCP transport: everything a tool does happens in the shared tool runtime (the same
 * executor, validation and 5-second public cache as the REST family; the per-caller rate limit is applied
 * to the whole POST by McpAccessGate); this only turns the outcome into an MCP result. Failures of the tool are results
 * with `isError: true` carrying the REST error code and message; an unknown tool name is a JSON-RPC error (-32602), as
 * MCP specifies.
 */
@Injectable()
export class McpToolCalls {
  private readonly logger = new Logger('McpToolCalls');
  /**
   * A cached public answer is the same text for every caller until it expires: its MCP result is
   * built and serialised once and then sent as stored (see serialised-results.ts), instead of
   * parsing the cached text and serialising its data twice (structured and as text) per call.
   */
  private readonly ready = new Map<string, CallToolResult>();

  constructor(
    private readonly executor: ToolExecutor,
    private readonly cache: ToolResultCache,
  ) {}

  async call(name: string, rawArgs: unknown, ctx: ToolContext): Promise<CallToolResult> {
    try {
      const tool = this.executor.resolve(name, ctx.family);
      this.executor.authorize(tool, ctx);
      const args = this.executor.parse(tool, rawArgs);
      if (ctx.family !== 'public' || !tool.cacheable) return successResult(await this.executor.run(tool, args, ctx));
      const cached = await this.cache.getOrCompute(this.cache.key(tool.name, args), async () =>
        JSON.stringify(await this.executor.run(tool, args, ctx)),
      );
      return this.readyResult(cached.body);
    } catch (error) {
      if (isCodedError(error) && error.code === ToolErrorCode.ToolNotFound) throw unknownTool(name);
      if (isCodedError(error)) return errorResult(error.code, error.message);
      this.logger.error(`${name} failed: ${(error as Error)?.stack ?? String(error)}`);
      return errorResult(ToolErrorCode.InternalError, INTERNAL_ERROR);
    }
  }

  private readyResult(body: string): CallToolResult {
    let result = this.ready.get(body);
    if (!result) {
      result = serialisedOnce(successResult(JSON.parse(body) as ToolSuccess));
      if (this.ready.size >= READY_RESULTS) this.ready.delete(this.ready.keys().next().value!);
      this.ready.set(body, result);
    }
    return result;
  }
}

/** A JSON-RPC error the SDK sends as is (code -32602, as MCP specifies for unknown tools). */
function unknownTool(name: string): Error {
  const message = `Unknown tool: ${String(name).slice(0, 64)}. tools/list lists the tools: ${TOOL_CATALOG.map((t) => t.name).join(', ')}.`;
  return Object.assign(new Error(message), {
    code: ProtocolErrorCode.InvalidParams,
    data: { code: ToolErrorCode.ToolNotFound },
  });
}
