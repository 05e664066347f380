import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { WatchRow } from '@paper/alerts-data';
import type { AlertsPollerConfig } from '../config/alerts-poller.config';
import { ToolApiClient } from '../tool-api/tool-api.client';
import {
  type AccountData,
  type LeaderboardData,
  type Marks,
  marksOf,
  type TradeEvent,
  tradeOfEvent,
} from '../tool-api/tool-data';
import { ExchangeStream } from './exchange-stream';
import { type FetchPlan, planAccountFetches, scanVerdicts } from './account-fetch-plan';
import { mapWithLimit } from './canonical-json';
import { eventKey, type FeedCursor, pageHasGap, readFeed } from './feed-cursor';
import { advanceScan, SCAN_MARGIN_MS, scanCost, type ScanState, scanVerdict, startScan } from './open-position-scan';
import { needsPositions, type RuleStates } from './watch-state';
import { MARKET_NAMES } from '@paper/markets';

/** Event-log pages read per cycle at most (the rest wait for the next cycle), and their size. */
const LOG_PAGES = 20;
const LOG_PAGE_SIZE = 500;

export type AccountRead = { ok: true; data: AccountData } | { ok: false; error: string };

/** Where the open-position scan stands between cycles (part of the wallet poll document). */
export interface ScanProgress {
  scan?: ScanState;
  /** Pages of the trader listing at the last scan: what the next full scan would cost. */
  listingPages?: number;
}

/** Everything one wallet cycle read from the tool API. */
export interface WalletObservations {
  feedOk: boolean;
  feedError?: string;
  cursor: FeedCursor | undefined;
  gap: boolean;
  /** New trade events per watched address, oldest first. */
  events: Map<string, TradeEvent[]>;
  marks?: Marks;
  accounts: Map<string, AccountRead>;
  plan: FetchPlan;
  /** The scan as this cycle leaves it. */
  scan: ScanProgress;
  /** Leaderboard pages read this cycle (and how many of them failed). */
  pagesRead: number;
  pagesFailed: number;
}

const message = (error: unknown): string => (error as Error).message ?? String(error);

/**
 * Gathers a cycle's observations with as few calls as the changes need: one global recent-trades
 * read (two more per market only when the page may have missed events), one get_markets when any
 * watched wallet has open positions, get_account only for the planned addresses (deduplicated, capped,
 * bounded concurrency), leaderboard pages while an open-position scan runs, and a per-wallet trade
 * read only when a known position vanished unreported.
 */
@Injectable()
export class WalletObserver {
  constructor(
    private readonly tools: ToolApiClient,
    private readonly stream: ExchangeStream,
    @Inject(APP_CONFIG) private readonly config: AlertsPollerConfig,
  ) {}

  async observe(
    watches: readonly WatchRow[],
    states: ReadonlyMap<string, RuleStates>,
    cursor: FeedCursor | undefined,
    progress: ScanProgress,
    now: number,
  ): Promise<WalletObservations> {
    const watched = new Set(watches.map((w) => w.address));
    const feed = await this.readFeed(cursor);
    const events = new Map<string, TradeEvent[]>();
    for (const e of feed.fresh) {
      const trader = e.trader.toLowerCase();
      if (!watched.has(trader)) continue;
      events.set(trader, [...(events.get(trader) ?? []), e]);
    }
    const scan = this.scanFor(watches, states, progress, now);
    const plan = planAccountFetches(watches, states, {
      now,
      refreshMs: this.config.ALERTS_ACCOUNT_REFRESH_MS,
      refreshMax: this.config.ALERTS_ACCOUNT_REFRESH_MAX,
      max: this.config.ALERTS_ACCOUNT_FETCH_MAX,
      events,
      gap: feed.gap,
      scan,
    });
    const hasPositions = watches.some((w) => Object.keys(states.get(w.id)?.positions?.positions ?? {}).length > 0);
    const [marks, accounts, pages] = await Promise.all([
      hasPositions && feed.ok ? this.marks() : Promise.resolve(undefined),
      this.accounts(plan.fetch),
      this.pages(plan.pages, scan),
    ]);
    await this.explainVanished(watches, states, accounts, events);
    let next: ScanProgress = { listingPages: progress.listingPages };
    if (scan) {
      const asked = new Set(
        watches
          .filter(
            (w) =>
              needsPositions(w.rules, states.get(w.id)) && w.changedAt.getTime() <= scan.startedAt - SCAN_MARGIN_MS,
          )
          .map((w) => w.address),
      );
      const advanced = advanceScan(scan, pages, asked);
      next = { scan: advanced, listingPages: advanced.totalPages ?? progress.listingPages };
      // Verdicts of this cycle's pages apply at once: wallets now known to have no position are seeded this cycle.
      plan.verdicts = scanVerdicts(watches, states, advanced);
    }
    const pagesFailed = pages.filter((p) => !p.data).length;
    return {
      feedOk: feed.ok,
      feedError: feed.error,
      cursor: feed.cursor,
      gap: feed.gap,
      events,
      marks,
      accounts,
      plan,
      scan: next,
      pagesRead: pages.length,
      pagesFailed,
    };
  }

  /**
   * The scan to work on this cycle: the one in progress; a new one when more wallets need their
   * positions than a full scan costs in pages (and than one cycle can read directly), counting only
   * wallets a finished scan cannot answer for; else a finished scan while wallets it found with
   * positions still wait for their read.
   */
  private scanFor(
    watches: readonly WatchRow[],
    states: ReadonlyMap<string, RuleStates>,
    progress: ScanProgress,
    now: number,
  ): ScanState | undefined {
    const current = progress.scan;
    if (current && !current.complete) return current;
    const unknown = watches.filter((w) => needsPositions(w.rules, states.get(w.id)));
    const open = new Set(current?.open ?? []);
    const unanswered = unknown.filter(
      (w) => !current || ['ineligible', 'uncovered'].includes(scanVerdict(current, w.address, w.changedAt, open)),
    );
    const wallets = new Set(unanswered.map((w) => w.address)).size;
    if (wallets > Math.max(this.config.ALERTS_ACCOUNT_FETCH_MAX, scanCost(progress.listingPages)))
      return startScan(now);
    return current && unknown.some((w) => open.has(w.address)) ? current : undefined;
  }

  /**
   * The trades since the last cycle. With a log cursor: every trade of the event log after it, page by
   * page (at most LOG_PAGES pages a cycle; the rest next cycle), so no gap or burst loses one. The first
   * cycle (no cursor yet) and an exchange whose log cannot be read fall back to the recent-trades feed.
   */
  private async readFeed(
    cursor: FeedCursor | undefined,
  ): Promise<{ ok: boolean; error?: string; fresh: TradeEvent[]; cursor: FeedCursor | undefined; gap: boolean }> {
    if (cursor?.eventId !== undefined) {
      const logged = await this.readLog(cursor).catch(() => null);
      if (logged) return logged;
    }
    const recent = await this.readRecent(cursor);
    if (recent.ok && recent.cursor && cursor?.eventId === undefined) {
      const latest = await this.tools
        .events('0', 1)
        .then((page) => page.latestCursor)
        .catch(() => undefined);
      if (latest !== undefined) recent.cursor = { ...recent.cursor, eventId: latest };
    }
    return recent;
  }

  private async readLog(
    cursor: FeedCursor,
  ): Promise<{ ok: boolean; fresh: TradeEvent[]; cursor: FeedCursor; gap: boolean }> {
    const fresh: TradeEvent[] = [];
    let after = cursor.eventId!;
    for (let page = 0; page < LOG_PAGES; page += 1) {
      const read = await this.tools.events(after, LOG_PAGE_SIZE);
      for (const event of read.events) {
        const trade = tradeOfEvent(event);
        if (trade) fresh.push(trade);
      }
      after = read.nextCursor;
      if (!read.more) break;
    }
    const times = fresh.map((e) => Date.parse(e.time)).filter((t) => !Number.isNaN(t));
    const newest = times.length > 0 ? Math.max(cursor.newest ?? -Infinity, ...times) : cursor.newest;
    return { ok: true, fresh, cursor: { newest, seen: {}, eventId: after }, gap: false };
  }

  private async readRecent(
    cursor: FeedCursor | undefined,
  ): Promise<{ ok: boolean; error?: string; fresh: TradeEvent[]; cursor: FeedCursor | undefined; gap: boolean }> {
    try {
      let trades = (await this.tools.recentTrades()).trades;
      let gap = false;
      const newest = cursor?.newest ?? null;
      if (pageHasGap(newest, trades)) {
        const perMarket = await Promise.all(MARKET_NAMES.map((market) => this.tools.recentTrades({ market })));
        gap = perMarket.some((page) => pageHasGap(newest, page.trades));
        const merged = new Map(trades.map((e) => [eventKey(e), e]));
        for (const page of perMarket) for (const e of page.trades) merged.set(eventKey(e), e);
        trades = [...merged.values()];
      }
      const read = readFeed(cursor, trades, this.config.ALERTS_FEED_OVERLAP_MS, Infinity);
      return { ok: true, fresh: read.fresh, cursor: read.cursor, gap };
    } catch (error) {
      return { ok: false, error: message(error), fresh: [], cursor, gap: false };
    }
  }

  /** Mark prices: the stream's live ones, get_markets (cached up to 5 s by the tool API) for markets without one. */
  private async marks(): Promise<Marks | undefined> {
    const live = this.stream.liveMarks();
    if (MARKET_NAMES.every((m) => live[m] !== undefined)) return live;
    try {
      return { ...marksOf(await this.tools.markets()), ...live };
    } catch {
      return Object.keys(live).length > 0 ? live : undefined;
    }
  }

  private async accounts(addresses: readonly string[]): Promise<Map<string, AccountRead>> {
    const reads = new Map<string, AccountRead>();
    await mapWithLimit(addresses, this.config.ALERTS_ACCOUNT_CONCURRENCY, async (address) => {
      try {
        reads.set(address, { ok: true, data: await this.tools.account(address) });
      } catch (error) {
        reads.set(address, { ok: false, error: message(error) });
      }
    });
    return reads;
  }

  /** Reads scan pages; while the listing's size is unknown, page 0 first, then only pages that exist. */
  private async pages(
    numbers: readonly number[],
    scan: ScanState | undefined,
  ): Promise<{ page: number; data: LeaderboardData | undefined }[]> {
    const pages: { page: number; data: LeaderboardData | undefined }[] = [];
    const read = async (page: number) => {
      pages.push({ page, data: await this.tools.tradersByAddress(page).catch(() => undefined) });
    };
    let rest = numbers;
    if (scan?.totalPages === null && numbers[0] === 0) {
      await read(0);
      const total = pages[0]!.data?.totalPages;
      rest = total === undefined ? [] : numbers.slice(1).filter((page) => page < total);
    }
    await mapWithLimit(rest, this.config.ALERTS_ACCOUNT_CONCURRENCY, read);
    return pages;
  }

  /**
   * A remembered position missing from a fresh account without a close in the feed: look it up in the wallet's own
   * trades.
   */
  private async explainVanished(
    watches: readonly WatchRow[],
    states: ReadonlyMap<string, RuleStates>,
    accounts: Map<string, AccountRead>,
    events: Map<string, TradeEvent[]>,
  ): Promise<void> {
    const vanished = new Map<string, Set<string>>();
    for (const watch of watches) {
      const read = accounts.get(watch.address);
      const known = states.get(watch.id)?.positions;
      if (!read?.ok || !known) continue;
      const open = new Set(read.data.positions.map((p) => p.positionId));
      const reported = new Set([
        ...(events.get(watch.address) ?? []).filter((e) => e.type !== 'open').map((e) => e.positionId),
        ...Object.keys(known.closed ?? {}),
      ]);
      for (const id of Object.keys(known.positions)) {
        if (!open.has(id) && !reported.has(id))
          vanished.set(watch.address, (vanished.get(watch.address) ?? new Set()).add(id));
      }
    }
    await mapWithLimit([...vanished.keys()], this.config.ALERTS_ACCOUNT_CONCURRENCY, async (address) => {
      try {
        const ids = vanished.get(address)!;
        const found = (await this.tools.recentTrades({ wallet: address })).trades.filter(
          (e) => e.type !== 'open' && ids.has(e.positionId),
        );
        if (found.length > 0) events.set(address, [...(events.get(address) ?? []), ...found]);
      } catch {
        // The position is dropped from the state without an alert; the close stays unreported.
      }
    });
  }
}
