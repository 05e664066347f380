import type { ExchangeEvent } from '@paper/contracts';
import type { ServerResponse } from 'node:http';
import { type CloseReason, closeFrame, eventCursor, eventFrame } from './sse-frames';
import { matches, type StreamFilter } from './stream-filter';

/** Who holds a stream: the caller it counts against, and for a /me stream the token's connection and expiry. */
export interface StreamOwner {
  /** `wallet:<address>` on /me, `ip:<address>` on the public stream. */
  readonly caller: string;
  /** The connection (OAuth grant) of the token: the stream ends when it is revoked. */
  readonly grantId?: string;
  /** Unix seconds: the stream ends when the token expires. */
  readonly expiresAt?: number;
}

/** Events a client catching up may have waiting from the live feed before it counts as too slow. */
const MAX_PENDING = 10_000;

/**
 * One connected stream. While it catches up from the log (`Last-Event-ID`), live events are held and
 * sent after the replay, skipping what the replay already sent (ids at or below its cursor); then it is
 * live. Bytes the socket has not taken yet are bounded: past the limit the client is told
 * `event: close` (`slow_consumer`) and disconnected, so a slow reader never grows the server's memory.
 */
export class StreamClient {
  /** The last log id this client has been given (or was given up to, when filtered out). */
  cursor: bigint;
  private live: boolean;
  private readonly pending: ExchangeEvent[] = [];
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    readonly filter: StreamFilter,
    readonly owner: StreamOwner,
    private readonly maxBufferBytes: number,
    cursor: bigint,
    live: boolean,
  ) {
    this.cursor = cursor;
    this.live = live;
  }

  get open(): boolean {
    return !this.ended && !this.res.destroyed;
  }

  /** An event of the live feed, in log order. */
  offer(event: ExchangeEvent): void {
    if (!this.open || !matches(this.filter, event)) return;
    if (!this.live) {
      if (this.pending.length >= MAX_PENDING)
        return this.close(
          'slow_consumer',
          'The stream fell too far behind while catching up; reconnect with Last-Event-ID.',
        );
      this.pending.push(event);
      return;
    }
    this.send(event);
  }

  /** An event read from the log while catching up. */
  replay(event: ExchangeEvent): void {
    this.send(event);
  }

  /** The replay reached the end of the log: what arrived live meanwhile goes out, then live events do. */
  goLive(): void {
    for (const event of this.pending.splice(0)) this.send(event);
    this.live = true;
  }

  /** A frame that is not a logged event (price, heartbeat, reset). */
  write(frame: string | Buffer): void {
    if (!this.open) return;
    if (this.res.writableLength > this.maxBufferBytes) {
      this.close(
        'slow_consumer',
        'The client reads the stream slower than events arrive; reconnect with Last-Event-ID to resume.',
      );
      return;
    }
    this.res.write(frame);
  }

  close(reason: CloseReason, message: string): void {
    if (!this.open) return;
    this.ended = true;
    this.res.end(closeFrame(reason, message));
  }

  private send(event: ExchangeEvent): void {
    const id = eventCursor(event);
    if (id <= this.cursor) return;
    this.cursor = id;
    this.write(eventFrame(event));
  }
}
