import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  EVENT_PAGE_MAX,
  EVENT_STREAM_HEARTBEAT_MS,
  EXCHANGE_EVENTS_CHANNEL,
  type ExchangeEvent,
} from '@paper/contracts';
import { eventLogBounds, readEvents } from '@paper/exchange-data';
import { APP_CONFIG, guardedPgClient } from '@paper/nest-infra';
import type { ServerResponse } from 'node:http';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import type { ToolsGatewayConfig } from '../config/tools-gateway.config';
import { PriceRelay } from './price-relay';
import { HEARTBEAT_FRAME, RETRY_FRAME, resetFrame } from './sse-frames';
import { StreamClient } from './stream-client';
import type { StreamFilter } from './stream-filter';

/** While LISTEN is down, the log is read this often instead; while it is up, every few seconds as a backstop. */
const FALLBACK_POLL_MS = 1000;
const BACKSTOP_EVERY = 5;
const MAX_RECONNECT_MS = 10_000;

type HubConfig = Pick<
  ToolsGatewayConfig,
  'DATABASE_URL' | 'EVENT_STREAM_MAX_CLIENTS' | 'EVENT_STREAM_MAX_BUFFER_BYTES'
>;

/**
 * Fans the event log out to every stream client of this gateway. The log is the truth; PostgreSQL
 * LISTEN/NOTIFY (channel `exchange_events`, sent by every committing writer) only wakes the hub, which
 * then reads each new page of the log once for all clients (5,000 clients cost one query per page, not
 * 5,000). While the LISTEN connection is down it reads the log every second; it reconnects with backoff
 * and never takes the process down. Every gateway replica runs its own hub, so streams fan out across
 * replicas with no coordination.
 */
@Injectable()
export class EventHub implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventStreams');
  private readonly clients = new Set<StreamClient>();
  private head = 0n;
  private reading: Promise<void> | null = null;
  private again = false;
  private listener: pg.Client | null = null;
  private listening = false;
  private reconnectMs = 500;
  private stopped = false;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly db: DataSource,
    private readonly prices: PriceRelay,
    @Inject(APP_CONFIG) private readonly config: HubConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.head = BigInt((await eventLogBounds(this.db).catch(() => ({ newest: '0' }))).newest);
    void this.listen();
    let ticks = 0;
    this.timers.push(
      setInterval(() => {
        ticks += 1;
        if (!this.listening || ticks % BACKSTOP_EVERY === 0) this.wake();
      }, FALLBACK_POLL_MS).unref(),
      setInterval(() => {
        for (const c of this.clients) c.write(HEARTBEAT_FRAME);
      }, EVENT_STREAM_HEARTBEAT_MS).unref(),
    );
    this.prices.start((market, frame) => {
      for (const c of this.clients)
        if (c.filter.prices && (c.filter.market === undefined || c.filter.market === market)) c.write(frame);
    });
  }

  /** Clients connected now. */
  get size(): number {
    return this.clients.size;
  }

  get full(): boolean {
    return this.clients.size >= this.config.EVENT_STREAM_MAX_CLIENTS;
  }

  /**
   * Starts a stream on the response: live from now, or (with a cursor) the log after the cursor first,
   * then live without a gap or a duplicate.
   */
  async attach(res: ServerResponse, filter: StreamFilter, resumeAfter: string | undefined): Promise<void> {
    // The stream ends only when the connection closes, so it is sent as it is (no chunked framing: one
    // write per frame per client, the fan-out's whole cost) and the connection is not reused.
    res.removeHeader('Transfer-Encoding');
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
      Connection: 'close',
    });
    res.write(RETRY_FRAME);
    const client = new StreamClient(
      res,
      filter,
      this.config.EVENT_STREAM_MAX_BUFFER_BYTES,
      resumeAfter === undefined ? this.head : BigInt(resumeAfter),
      resumeAfter === undefined,
    );
    this.clients.add(client);
    res.once('close', () => this.clients.delete(client));
    if (resumeAfter !== undefined) await this.catchUp(client, resumeAfter);
  }

  private async catchUp(client: StreamClient, resumeAfter: string): Promise<void> {
    const { oldest } = await eventLogBounds(this.db);
    if (BigInt(oldest) > BigInt(resumeAfter) + 1n && BigInt(resumeAfter) > 0n) {
      const from = (BigInt(oldest) - 1n).toString();
      client.write(resetFrame(resumeAfter, from));
      client.cursor = BigInt(from);
    }
    const { types, wallet, market } = client.filter;
    for (;;) {
      if (!client.open) return;
      const page = await readEvents(this.db, {
        after: client.cursor.toString(),
        limit: EVENT_PAGE_MAX,
        types: [...types],
        wallet,
        market,
      });
      for (const event of page) client.replay(event);
      if (page.length < EVENT_PAGE_MAX) break;
    }
    client.goLive();
  }

  /** Reads what the log gained since the hub's head and offers it to every client (one read at a time). */
  wake(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readNew()
      .catch((error: Error) => this.logger.warn(`reading the event log failed (retried): ${error.message}`))
      .finally(() => {
        this.reading = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async readNew(): Promise<void> {
    for (;;) {
      const page: ExchangeEvent[] = await readEvents(this.db, { after: this.head.toString(), limit: EVENT_PAGE_MAX });
      for (const event of page) {
        for (const c of this.clients) c.offer(event);
        this.head = BigInt(event.id);
      }
      if (page.length < EVENT_PAGE_MAX) return;
    }
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const Client = guardedPgClient((error) => this.lost(error));
    const client = new Client({
      connectionString: this.config.DATABASE_URL,
      keepAlive: true,
      application_name: 'tools-gateway-events',
    } as pg.ClientConfig);
    this.listener = client;
    client.on('notification', () => this.wake());
    client.on('end', () => this.lost(new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${EXCHANGE_EVENTS_CHANNEL}`);
      this.listening = true;
      this.reconnectMs = 500;
      this.wake(); // whatever was committed while not listening
    } catch (error) {
      this.lost(error as Error);
    }
  }

  private lost(error: Error): void {
    if (this.listener === null) return;
    const client = this.listener;
    this.listener = null;
    this.listening = false;
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn(
      `event notifications lost (${error.message}); reading the log every ${FALLBACK_POLL_MS} ms until LISTEN is back`,
    );
    const delay = this.reconnectMs;
    this.reconnectMs = Math.min(MAX_RECONNECT_MS, this.reconnectMs * 2);
    setTimeout(() => void this.listen(), delay).unref();
  }

  /** Whether notifications arrive (the log is read every second otherwise). */
  get notified(): boolean {
    return this.listening;
  }

  /** Deploys: every stream is told `event: close` (`shutdown`) and ended, so connections drain and clients reconnect elsewhere. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.prices.stop();
    for (const c of this.clients)
      c.close('shutdown', 'The server is restarting; reconnect with Last-Event-ID to resume.');
    this.clients.clear();
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    await this.reading;
  }
}
