import type { ExchangeEvent, PriceEvent } from '@paper/contracts';
import { EVENT_STREAM_RETRY_MS } from '@paper/contracts';

/**
 * Server-sent-event frames (WHATWG HTML, "Server-sent events"): `id:` is the event's cursor, `event:` its
 * type, `data:` one JSON object on one line (JSON never contains a raw line break), a blank line ends it.
 */

/** The first frame of every stream: how long clients wait before reconnecting. */
export const RETRY_FRAME = `retry: ${EVENT_STREAM_RETRY_MS}\n\n`;

/** A comment line: ignored by clients, keeps proxies from closing an idle connection. */
export const HEARTBEAT_FRAME = Buffer.from(': hb\n\n');

/** Frames of events being fanned out, encoded once per event however many clients receive it. */
const frames = new WeakMap<ExchangeEvent, Buffer>();

export function eventFrame(event: ExchangeEvent): Buffer {
  let frame = frames.get(event);
  if (frame === undefined) {
    frame = Buffer.from(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    frames.set(event, frame);
  }
  return frame;
}

const cursors = new WeakMap<ExchangeEvent, bigint>();

/** The event's id as a number to compare cursors with, parsed once per event. */
export function eventCursor(event: ExchangeEvent): bigint {
  let cursor = cursors.get(event);
  if (cursor === undefined) {
    cursor = BigInt(event.id);
    cursors.set(event, cursor);
  }
  return cursor;
}

/** A live price tick: no `id:` (it is not in the log and is never replayed); encoded once for every client. */
export function priceFrame(tick: PriceEvent): Buffer {
  return Buffer.from(`event: price\ndata: ${JSON.stringify(tick)}\n\n`);
}

/** Why the server ends a stream (`event: close`), documented in docs/tool-api.md. */
export type CloseReason = 'slow_consumer' | 'shutdown' | 'token_expired' | 'connection_revoked';

export function closeFrame(reason: CloseReason, message: string): string {
  return `event: close\ndata: ${JSON.stringify({ reason, message })}\n\n`;
}

/** The cursor is older than the retention: the stream goes on from the oldest event kept. */
export function resetFrame(cursor: string, oldest: string): string {
  const data = {
    reason: 'cursor_expired',
    cursor,
    resumeAfter: oldest,
    message:
      'Events after this cursor are older than the retention and were dropped; the stream continues from the oldest ' +
      'event kept.',
  };
  return `id: ${oldest}\nevent: reset\ndata: ${JSON.stringify(data)}\n\n`;
}
