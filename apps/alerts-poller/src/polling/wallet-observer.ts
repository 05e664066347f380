import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { AlertsPollerConfig } from '../config/alerts-poller.config';
import { ToolApiClient } from '../tool-api/tool-api.client';
import { type AccountData, type Marks, marksOf, type TradeEvent } from '../tool-api/tool-data';
import { type FetchPlan, planAccountFetches } from './account-fetch-plan';
import { mapWithLimit } from './canonical-json';
import { eventKey, type FeedCursor, pageHasGap, readFeed } from './feed-cursor';
import type { RuleStates, WatchRow } from './watch-state';

export type AccountRead = { ok: true; data: AccountData } | { ok: false; error: string };

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
}

const message = (error: unknown): string => (error as Error).message ?? String(error);

/**
 * Gathers a cycle's observations with as few calls as the changes need: one global recent-trades
 * read (two more per market only when the page may have missed events), one get_markets when any
 * watched wallet has open positions, get_account only for the planned addresses (deduplicated, capped,
 * bounded concurrency), and a per-wallet trade read only when a known position vanished unreported.
 */
@Injectable()
export class WalletObserver {
  constructor(
    private readonly tools: ToolApiClient,
    @Inject(APP_CONFIG) private readonly config: AlertsPollerConfig,
  ) {}

  async observe(watches: readonly WatchRow[], states: ReadonlyMap<string, RuleStates>, cursor: FeedCursor | undefined, now: number): Promise<WalletObservations> {
    const watched = new Set(watches.map((w) => w.address));
    const feed = await this.readFeed(cursor);
    const events = new Map<string, TradeEvent[]>();
    for (const e of feed.fresh) {
      const trader = e.trader.toLowerCase();
      if (!watched.has(trader)) continue;
      events.set(trader, [...(events.get(trader) ?? []), e]);
    }
    const plan = planAccountFetches(watches, states, {
      now,
      refreshMs: this.config.ALERTS_ACCOUNT_REFRESH_MS,
      max: this.config.ALERTS_ACCOUNT_FETCH_MAX,
      active: new Set(events.keys()),
      gap: feed.gap,
    });
    const hasPositions = watches.some((w) => Object.keys(states.get(w.id)?.positions?.positions ?? {}).length > 0);
    const [marks, accounts] = await Promise.all([hasPositions && feed.ok ? this.marks() : Promise.resolve(undefined), this.accounts(plan.fetch)]);
    await this.explainVanished(watches, states, accounts, events);
    return { feedOk: feed.ok, feedError: feed.error, cursor: feed.cursor, gap: feed.gap, events, marks, accounts, plan };
  }

  private async readFeed(cursor: FeedCursor | undefined): Promise<{ ok: boolean; error?: string; fresh: TradeEvent[]; cursor: FeedCursor | undefined; gap: boolean }> {
    try {
      let trades = (await this.tools.recentTrades()).trades;
      let gap = false;
      const newest = cursor?.newest ?? null;
      if (pageHasGap(newest, trades)) {
        const perMarket = await Promise.all((['BTC', 'ETH'] as const).map((market) => this.tools.recentTrades({ market })));
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

  private async marks(): Promise<Marks | undefined> {
    try {
      return marksOf(await this.tools.markets());
    } catch {
      return undefined;
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

  /** A remembered position missing from a fresh account without a close in the feed: look it up in the wallet's own trades. */
  private async explainVanished(watches: readonly WatchRow[], states: ReadonlyMap<string, RuleStates>, accounts: Map<string, AccountRead>, events: Map<string, TradeEvent[]>): Promise<void> {
    const vanished = new Map<string, Set<string>>();
    for (const watch of watches) {
      const read = accounts.get(watch.address);
      const known = states.get(watch.id)?.positions?.positions;
      if (!read?.ok || !known) continue;
      const open = new Set(read.data.positions.map((p) => p.positionId));
      const reported = new Set((events.get(watch.address) ?? []).filter((e) => e.type !== 'open').map((e) => e.positionId));
      for (const id of Object.keys(known)) {
        if (!open.has(id) && !reported.has(id)) vanished.set(watch.address, (vanished.get(watch.address) ?? new Set()).add(id));
      }
    }
    await mapWithLimit([...vanished.keys()], this.config.ALERTS_ACCOUNT_CONCURRENCY, async (address) => {
      try {
        const ids = vanished.get(address)!;
        const found = (await this.tools.recentTrades({ wallet: address })).trades.filter((e) => e.type !== 'open' && ids.has(e.positionId));
        if (found.length > 0) events.set(address, [...(events.get(address) ?? []), ...found]);
      } catch {
        // The position is dropped from the state without an alert; the close stays unreported.
      }
    });
  }
}
