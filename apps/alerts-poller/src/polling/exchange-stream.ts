import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ALERTS_POLL_QUEUE, EVENT_STREAM_PATHS, parsePriceEvent } from '@paper/contracts';
import { APP_CONFIG, QueueRegistry } from '@paper/nest-infra';
import { EventSource } from 'eventsource';
import type { AlertsPollerConfig } from '../config/alerts-poller.config';
import type { Marks } from '../tool-api/tool-data';

const TRADE_TYPES = ['position.opened', 'position.closed', 'position.liquidated'] as const;
const MIN_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

type StreamConfig = Pick<AlertsPollerConfig, 'EXCHANGE_API_URL' | 'ALERTS_STREAM' | 'ALERTS_STREAM_WAKE_MS'>;

/**
 * The exchange's public event stream as the poller's wake-up: a trade or a price tick starts a wallet
 * cycle at once (at most one every ALERTS_STREAM_WAKE_MS) instead of at the next scheduled poll, and the
 * latest price of each market is kept for the liquidation-risk rules. What the alerts are made from is
 * read by cursor from the exchange's event log in the cycle (get_events; the cursor lives in the poll
 * document in PostgreSQL), so a dropped stream, a restart or a burst loses nothing: the scheduled poll
 * goes on while the stream is down, and catches up from the cursor.
 */
@Injectable()
export class ExchangeStream implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ExchangeStream');
  private source: EventSource | null = null;
  /** The latest price of each market received since the stream (re)connected: current while it stays connected. */
  private readonly marks = new Map<string, number>();
  private wakeTimer: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryMs = MIN_RETRY_MS;
  private stopped = false;
  private lastWake = 0;

  constructor(
    private readonly queues: QueueRegistry,
    @Inject(APP_CONFIG) private readonly config: StreamConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.ALERTS_STREAM) this.connect();
  }

  /**
   * Opens the stream. EventSource reconnects by itself after a dropped connection, but gives up for good
   * on an answer that is not a stream (a 5xx during a deploy, a proxy's error page): then it is opened
   * again here, with backoff up to 30 s.
   */
  private connect(): void {
    if (this.stopped) return;
    const url =
      `${this.config.EXCHANGE_API_URL.replace(/\/+$/, '')}${EVENT_STREAM_PATHS.public}` +
      `?types=${[...TRADE_TYPES, 'price'].join(',')}`;
    const source = new EventSource(url);
    this.source = source;
    for (const type of TRADE_TYPES) source.addEventListener(type, () => this.wake());
    source.addEventListener('price', (e) => {
      const tick = parsePriceEvent(e.data);
      if (!tick) return; // A frame that is not a price tick: ignored.
      this.marks.set(tick.market, tick.markPrice);
      this.wake();
    });
    source.addEventListener('open', () => {
      this.marks.clear();
      this.retryMs = MIN_RETRY_MS;
      this.logger.log('exchange event stream connected');
    });
    source.addEventListener('error', () => {
      this.marks.clear();
      if (source.readyState !== EventSource.CLOSED) return; // EventSource reconnects by itself
      source.close();
      const delay = this.retryMs;
      this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
      this.logger.debug(`exchange event stream refused; opening it again in ${delay} ms`);
      this.retry = setTimeout(() => this.connect(), delay);
      this.retry.unref();
    });
  }

  /** Whether the stream is connected now. */
  get connected(): boolean {
    return this.source?.readyState === EventSource.OPEN;
  }

  /** The markets' prices from the stream while it is connected (those that ticked since it connected). */
  liveMarks(): Marks {
    const marks: Marks = {};
    if (!this.connected) return marks;
    for (const [market, price] of this.marks) marks[market as keyof Marks] = price;
    return marks;
  }

  private wake(): void {
    if (this.wakeTimer) return;
    const wait = Math.max(0, this.lastWake + this.config.ALERTS_STREAM_WAKE_MS - Date.now());
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.lastWake = Date.now();
      // One job per wake-up slot: replicas woken by the same event add it once.
      const slot = Math.floor(this.lastWake / this.config.ALERTS_STREAM_WAKE_MS);
      this.queues
        .add(ALERTS_POLL_QUEUE, 'poll-wallets', {}, { jobId: `wake-${slot}` })
        .catch((error: Error) => this.logger.debug(`wake-up not queued: ${error.message}`));
    }, wait);
    this.wakeTimer.unref();
  }

  beforeApplicationShutdown(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.source?.close();
    this.source = null;
  }
}
