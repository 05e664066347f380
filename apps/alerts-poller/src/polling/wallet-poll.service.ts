import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG } from '@paper/nest-infra';
import type { StateWrite, WatchRow } from '@paper/alerts-data';
import { eventIdFor } from '../alerts/alert-ids';
import { AlertWriter, type PendingAlert } from '../alerts/alert-writer.service';
import type { AlertsPollerConfig } from '../config/alerts-poller.config';
import { canonicalJson } from './canonical-json';
import type { FeedCursor } from './feed-cursor';
import { isFenced } from './fencing';
import type { Lease } from './poll-leader';
import { RuleStateCache } from './rule-state-cache';
import { type ScanProgress, WalletObserver, type WalletObservations } from './wallet-observer';
import { evaluateWatch } from './watch-evaluator';
import { hasStaleEnabled, needsAccount, needsPositions, RULE_STATE_KEYS, type RuleStates } from './watch-state';
import { WatchStore } from './watch-store';

export const WALLET_POLL = 'wallets';

interface WalletPollDetails extends ScanProgress {
  cursor: FeedCursor;
  /**
   * Changes with every committed cycle: lets the committing process keep its rule states in memory, and fences commits.
   */
  generation: string;
}

export interface WalletCycleReport {
  watches: number;
  addresses: number;
  events: number;
  accountReads: number;
  /** Leaderboard pages read by the open-position scan. */
  scanPages: number;
  /** Watches whose open positions are still unknown (no liquidation coverage yet). */
  unseeded: number;
  deferred: number;
  alerts: number;
  deliveries: number;
  stateWrites: number;
  feedOk: boolean;
  gap: boolean;
  durationMs: number;
}

/**
 * One wallet poll cycle: read watches and rule states, observe (few tool calls), evaluate every rule
 * of every watch, and commit states + alerts + deliveries + poll status in one transaction.
 */
@Injectable()
export class WalletPollService {
  private readonly logger = new Logger(WalletPollService.name);
  private readonly cache = new RuleStateCache();

  constructor(
    private readonly store: WatchStore,
    private readonly observer: WalletObserver,
    private readonly writer: AlertWriter,
    @Inject(APP_CONFIG) private readonly config: AlertsPollerConfig,
  ) {}

  /** One pass; under a poll lease (`lease`) it commits only while the lease still holds. */
  async run(lease?: Lease): Promise<WalletCycleReport> {
    const startedAt = new Date();
    try {
      return await this.cycle(startedAt, lease);
    } catch (error) {
      if (!isFenced(error))
        await this.writer.recordFailure(WALLET_POLL, startedAt, (error as Error).message).catch(() => undefined);
      throw error;
    }
  }

  private async cycle(startedAt: Date, lease: Lease | undefined): Promise<WalletCycleReport> {
    const now = startedAt.getTime();
    const details = await this.store.pollDetails<WalletPollDetails>(WALLET_POLL);
    const watches = await this.store.watches();
    let states = this.cache.read(details.generation);
    if (!states) {
      states = watches.length > 0 ? await this.store.ruleStates() : new Map<string, RuleStates>();
      this.cache.load(states, details.generation);
    }
    const obs = await this.observer.observe(
      watches,
      states,
      details.cursor,
      { scan: details.scan, listingPages: details.listingPages },
      now,
    );
    const margin = this.config.ALERTS_REARM_MARGIN_PCT / 100;
    const alerts: PendingAlert[] = [];
    const writes: StateWrite[] = [];
    let unseeded = 0;
    for (const watch of watches) {
      const prev = states.get(watch.id) ?? {};
      if (isQuiet(watch, prev, obs)) {
        if (needsPositions(watch.rules, prev)) unseeded += 1;
        continue;
      }
      const read = obs.accounts.get(watch.address);
      const result = evaluateWatch(watch, prev, {
        now,
        feedOk: obs.feedOk,
        events: obs.events.get(watch.address) ?? [],
        account: read,
        deferred: obs.plan.deferred.has(watch.address),
        verdict: obs.plan.verdicts.get(watch.id),
        marks: obs.marks,
        margin,
      });
      if (needsPositions(watch.rules, result.next)) unseeded += 1;
      writes.push(...changedStates(watch, prev, result.next));
      for (const a of result.alerts) {
        alerts.push({
          accountId: watch.accountId,
          watchId: watch.id,
          eventId: eventIdFor(watch.id, a.kind, a.episodeKey),
          kind: a.kind,
          wallet: watch.address,
          details: a.details,
          occurredAt: a.occurredAt,
        });
      }
    }
    const errors = [
      obs.feedOk ? null : `recent trades: ${obs.feedError}`,
      ...[...obs.accounts.values()]
        .filter((r) => !r.ok)
        .slice(0, 1)
        .map((r) => (r.ok ? '' : `account: ${r.error}`)),
      obs.pagesFailed > 0 ? `leaderboard: ${obs.pagesFailed} page(s) failed` : null,
    ].filter(Boolean);
    const report = {
      watches: watches.length,
      addresses: new Set(watches.map((w) => w.address)).size,
      events: [...obs.events.values()].reduce((n, list) => n + list.length, 0),
      accountReads: obs.accounts.size,
      scanPages: obs.pagesRead,
      unseeded,
      deferred: obs.plan.deferred.size,
      feedOk: obs.feedOk,
      gap: obs.gap,
    };
    const finishedAt = new Date();
    const generation = randomUUID();
    const committed = this.writer.commit(
      {
        alerts,
        ruleStates: writes,
        protocolStates: [],
        poll: {
          name: WALLET_POLL,
          startedAt,
          finishedAt,
          ok: errors.length === 0,
          error: errors.length > 0 ? errors.join('; ') : null,
          durationMs: finishedAt.getTime() - now,
          details: {
            cursor: obs.cursor ?? details.cursor ?? { newest: null, seen: {} },
            ...obs.scan,
            last: report,
            generation,
          },
        },
      },
      { generation: details.generation, confirm: lease ? () => lease.confirm() : undefined },
    );
    const { alertsCreated, deliveryIds } = await committed.catch((error: unknown) => {
      this.cache.invalidate();
      throw error;
    });
    this.cache.apply(writes, generation, new Set(watches.map((w) => w.id)));
    if (alertsCreated > 0) this.logger.log(`${alertsCreated} alert(s), ${deliveryIds.length} deliveries`);
    return {
      ...report,
      alerts: alertsCreated,
      deliveries: deliveryIds.length,
      stateWrites: writes.length,
      durationMs: Date.now() - now,
    };
  }
}

/**
 * Nothing can change for a watch this cycle: no trade events and no account read for its wallet, no
 * open position to re-estimate, no scan verdict to apply, and its states match its rules.
 */
function isQuiet(watch: WatchRow, prev: RuleStates, obs: WalletObservations): boolean {
  if (obs.events.has(watch.address) || obs.accounts.has(watch.address) || obs.plan.deferred.has(watch.address))
    return false;
  if (Object.keys(prev.positions?.positions ?? {}).length > 0) return false;
  if (obs.plan.verdicts.get(watch.id) === 'empty') return false;
  if (hasStaleEnabled(watch.rules, prev)) return false;
  return needsAccount(watch.rules) || Object.keys(prev).length === 0;
}

/** Rule-state rows that differ from what is stored (compared as canonical JSON: jsonb reorders keys). */
function changedStates(watch: WatchRow, prev: RuleStates, next: RuleStates): StateWrite[] {
  const writes: StateWrite[] = [];
  for (const key of RULE_STATE_KEYS) {
    const before = prev[key];
    const after = next[key];
    if (after === undefined) {
      if (before !== undefined) writes.push({ scopeId: watch.id, rule: key, state: null });
    } else if (before === undefined || canonicalJson(before) !== canonicalJson(after)) {
      writes.push({ scopeId: watch.id, rule: key, state: after });
    }
  }
  return writes;
}
