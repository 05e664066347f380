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
import { ConnectionLiveness } from '@paper/tools-runtime';
import type { ServerResponse } from 'node:http';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import type { ToolsGatewayConfig } from '../config/tools-gateway.config';
import { PriceRelay } from './price-relay';
import { HEARTBEAT_FRAME, RETRY_FRAME, resetFrame } from './sse-frames';
import { StreamClient, type StreamOwner } from './stream-client';
import type { StreamFilter } from './stream-filter';

/** While LISTEN is down, the log is read this often instead; while it is up, every few seconds as a backstop. */
const FALLBACK_POLL_MS = 1000;
const BACKSTOP_EVERY = 5;
const MAX_RECONNECT_MS = 10_000;
/** How often the connections (grants) of open /me streams are read: the bound on a revocation ending them. */
export const REVOCATION_CHECK_MS = 500;

type HubConfig = Pick<
  ToolsGatewayConfig,
  'DATABASE_URL' | 'EVENT_STREAM_MAX_CLIENTS' | 'EVENT_STREAM_MAX_BUFFER_BYTES' | 'EVENT_STREAM_MAX_PER_CALLER'
>;

/**
 * Fans the event log out to every stream client of this gateway. The log is the truth; PostgreSQL
 * LISTEN/NOTIFY (channel `exchange_events`, sent by every committing writer) only wakes the hub, which
 * then reads each new page of the log once for all clients (5,000 clients cost one query per page, not
 * 5,000). While the LISTEN connection is down it reads the log every second; it reconnects with backoff
 * and never takes the process down. Every gateway replica runs its own hub, so streams fan out across
 * replicas with no coordination.
 *
 * Every stream is re-authorized while it lasts: a /me stream ends (`event: close`) when its token expires
 * (`token_expired`) and within REVOCATION_CHECK_MS of its connection being revoked (`connection_revoked`;
 * the grants of all open streams are read in one statement). A caller holds at most
 * EVENT_STREAM_MAX_PER_CALLER streams on a gateway.
 */
@Injectable()
export class EventHub implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventStreams');
  private readonly clients = new Set<StreamClient>();
  /** Open streams per caller. */
  private readonly perCaller = new Map<string, number>();
  private checkingGrants = false;
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
    private readonly connections: ConnectionLiveness,
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
      setInterval(() => void this.endRevoked(), REVOCATION_CHECK_MS).unref(),
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

  /** Whether the caller holds as many streams as one caller may. */
  atCallerCap(caller: string): boolean {
    return (this.perCaller.get(caller) ?? 0) >= this.config.EVENT_STREAM_MAX_PER_CALLER;
  }

  /**
   * Starts a stream on the response: live from now, or (with a cursor) the log after the cursor first,
   * then live without a gap or a duplicate.
   */
  async attach(
    res: ServerResponse,
    filter: StreamFilter,
    resumeAfter: string | undefined,
    owner: StreamOwner,
  ): Promise<void> {
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
      owner,
      this.config.EVENT_STREAM_MAX_BUFFER_BYTES,
      resumeAfter === undefined ? this.head : BigInt(resumeAfter),
      resumeAfter === undefined,
    );
    this.clients.add(client);
    this.perCaller.set(owner.caller, (this.perCaller.get(owner.caller) ?? 0) + 1);
    const expiry =
      owner.expiresAt === undefined
        ? undefined
        : setTimeout(
            () =>
              client.close('token_expired', 'The access token expired; refresh it and reconnect with Last-Event-ID.'),
            Math.max(0, owner.expiresAt * 1000 - Date.now()),
          ).unref();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(expiry);
      this.clients.delete(client);
      const left = (this.perCaller.get(owner.caller) ?? 1) - 1;
      if (left > 0) this.perCaller.set(owner.caller, left);
      else this.perCaller.delete(owner.caller);
    };
    res.once('close', release);
    // A client that left while its token was being checked closed before the listener existed.
    if (res.destroyed) release();
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

  /** Ends the streams whose connection was revoked (one read of every open stream's grant). */
  private async endRevoked(): Promise<void> {
    if (this.checkingGrants || this.stopped) return;
    const grants = new Set<string>();
    for (const c of this.clients) if (c.open && c.owner.grantId !== undefined) grants.add(c.owner.grantId);
    if (grants.size === 0) return;
    this.checkingGrants = true;
    try {
      const live = await this.connections.liveOf([...grants]);
      for (const c of this.clients) {
        if (c.owner.grantId !== undefined && !live.has(c.owner.grantId))
          c.close('connection_revoked', 'The wallet owner revoked this connection; connect again to keep streaming.');
      }
    } catch (error) {
      this.logger.warn(`checking the connections of streams failed (retried): ${(error as Error).message}`);
    } finally {
      this.checkingGrants = false;
    }
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

  /**
   * Deploys: every stream is told `event: close` (`shutdown`) and ended, so connections drain and clients reconnect
   * elsewhere.
   */
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
