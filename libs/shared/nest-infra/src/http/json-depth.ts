/**
 * The deepest nesting of objects and arrays a request may carry. No request of any service needs more
 * than a handful of levels; the bound keeps every recursive walk over a body (validators, transformers,
 * JSON.stringify) far from the stack's limit.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text (before parsing) nests objects and arrays deeper than `max`: one pass over the
 * bytes, brackets inside strings ignored. Malformed text is left to the parser.
 */
export function jsonTextTooDeep(text: string | Uint8Array, max = MAX_JSON_DEPTH): boolean {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

/** Whether a parsed value nests objects and arrays deeper than `max` (walked iteratively, never recursing). */
export function jsonValueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const inner of Array.isArray(current) ? current : Object.values(current)) {
      if (inner !== null && typeof inner === 'object') stack.push([inner, depth + 1]);
    }
  }
  return false;
}

/** The message of a refusal of too deeply nested input. */
export function tooDeepMessage(max = MAX_JSON_DEPTH): string {
  return `The request body nests objects or arrays more than ${max} levels deep. Send a flatter JSON body.`;
}
