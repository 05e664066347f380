import type { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isCodedError } from '@paper/contracts';
import { z } from 'zod';

/** A successful tool result: structured content plus the same JSON as text for clients without structured output. */
export function ok(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A tool error the model can read and act on: `<code>: <message>` as text. No structured content:
 * clients check structured content against the tool's output schema, errors included.
 */
export function fail(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }] };
}

/** Runs a tool body; coded errors (validation, not found, upstream) become tool errors instead of protocol errors. */
export async function run(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (isCodedError(error)) return fail(error.code, error.message);
    throw error;
  }
}

/** Output schemas accept extra fields: responses may grow. */
export const looseObject = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape);

const INPUT_INVALID = /^Input validation error: /;

/**
 * Makes the SDK's tool errors (arguments that fail the tool's input schema, a result that fails its
 * output schema, an error the tool did not code) read like the REST API's errors: `validation_failed:
 * <what is wrong>` for arguments, `internal_error` without internals otherwise. The SDK builds these
 * results in a method it keeps private, so the server's own is replaced.
 */
export function envelopeToolErrors(server: McpServer): void {
  (server as unknown as { createToolError(message: string): CallToolResult }).createToolError = (message) =>
    INPUT_INVALID.test(message)
      ? fail('validation_failed', message.replace(INPUT_INVALID, ''))
      : fail('internal_error', 'Something went wrong on our side. Please try again shortly.');
}
