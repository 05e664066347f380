import type { z } from 'zod';
import type { toolErrorSchema, toolFailureSchema } from './envelope-schemas';

/** The tool result envelope shared by the REST and MCP transports of the tool API (schemas: envelope-schemas.ts). */
export interface ToolSuccess<T extends object = Record<string, unknown>> {
  ok: true;
  /** A sentence a person can read, meant to be relayed to the user. */
  summary: string;
  data: T;
  /** Present on a write repeated with its client key: this is the first call's answer, sent again. */
  replayed?: true;
}

export type ToolErrorBody = z.infer<typeof toolErrorSchema>;

export type ToolFailure = z.infer<typeof toolFailureSchema>;

export type ToolResult<T extends object = Record<string, unknown>> = ToolSuccess<T> | ToolFailure;

export function toolSuccess<T extends object>(summary: string, data: T): ToolSuccess<T> {
  return { ok: true, summary, data };
}

export function toolFailure(code: string, message: string): ToolFailure {
  return { ok: false, error: { code, message } };
}
