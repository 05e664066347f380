import { Inject, Injectable } from '@nestjs/common';
import { mintRateStates, protocolRulesInUse, type StateWrite } from '@paper/alerts-data';
import { APP_CONFIG } from '@paper/nest-infra';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { eventIdFor } from '../alerts/alert-ids';
import { AlertWriter, type PendingAlert } from '../alerts/alert-writer.service';
import {
  type MarketStatusMap,
  marketStatusAlerts,
  marketStatusChanges,
  type MarketTransitions,
} from '../rules/market-status.rule';
import {
  addSupplySample,
  evaluateMintRate,
  mintedLastHourMicro,
  type MintRateState,
  type SupplySample,
} from '../rules/mint-rate.rule';
import { ToolApiClient } from '../tool-api/tool-api.client';
import type { MarketsData, ProtocolStatsData } from '../tool-api/tool-data';
import type { AlertsPollerConfig } from '../config/alerts-poller.config';
import { canonicalJson } from './canonical-json';
import { isFenced } from './fencing';
import type { Lease } from './poll-leader';
import { WatchStore } from './watch-store';

export const PROTOCOL_POLL = 'protocol';

interface ProtocolPollDetails {
  /** Market statuses last observed (absent while no account follows them: the next observation starts over). */
  marketStatus?: MarketStatusMap;
  /** Status changes seen per market so far (kept even while nobody follows: transition numbers never repeat). */
  marketTransitions?: MarketTransitions;
  supply?: SupplySample[];
  /** Changes with every committed pass (the commit fence compares it). */
  generation?: string;
}

export interface ProtocolCycleReport {
  accounts: number;
  alerts: number;
  marketsOk: boolean | null;
  statsOk: boolean | null;
}

async function attempt<T>(
  enabled: boolean,
  call: () => Promise<T>,
): Promise<{ value?: T; error?: string } | undefined> {
  if (!enabled) return undefined;
  try {
    return { value: await call() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * Protocol rules of every account: market status changes (get_markets) and the reward-token mint rate
 * over the last hour (from get_protocol_stats supply samples). One call of each per cycle, and none
 * while no account has the rule on.
 */
@Injectable()
export class ProtocolPollService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly store: WatchStore,
    private readonly tools: ToolApiClient,
    private readonly writer: AlertWriter,
    @Inject(APP_CONFIG) private readonly config: AlertsPollerConfig,
  ) {}

  /** One pass; under a poll lease (`lease`) it commits only while the lease still holds. */
  async run(lease?: Lease): Promise<ProtocolCycleReport> {
    const startedAt = new Date();
    try {
      return await this.cycle(startedAt, lease);
    } catch (error) {
      if (!isFenced(error))
        await this.writer.recordFailure(PROTOCOL_POLL, startedAt, (error as Error).message).catch(() => undefined);
      throw error;
    }
  }

  private async cycle(startedAt: Date, lease: Lease | undefined): Promise<ProtocolCycleReport> {
    const now = startedAt.getTime();
    const details = await this.store.pollDetails<ProtocolPollDetails>(PROTOCOL_POLL);
    const rows = await protocolRulesInUse(this.dataSource);
    const stored = await mintRateStates<MintRateState>(this.dataSource);
    const mintStates = new Map(stored.map((s) => [s.account_id, s.state]));
    const wantsMarkets = rows.some((r) => r.rules.marketStatus.enabled);
    const wantsStats = rows.some((r) => r.rules.mintRate.enabled);
    const [markets, stats] = await Promise.all([
      attempt<MarketsData>(wantsMarkets, () => this.tools.markets()),
      attempt<ProtocolStatsData>(wantsStats, () => this.tools.protocolStats()),
    ]);

    const alerts: PendingAlert[] = [];
    const writes: StateWrite[] = [];
    const next: ProtocolPollDetails = {
      supply: details.supply,
      marketTransitions: details.marketTransitions,
      generation: randomUUID(),
    };
    if (markets?.value) {
      const { statuses, changes, transitions } = marketStatusChanges(
        details.marketStatus,
        markets.value,
        details.marketTransitions,
      );
      next.marketStatus = statuses;
      next.marketTransitions = transitions;
      for (const row of rows) {
        for (const a of marketStatusAlerts(row.rules, changes, startedAt)) {
          alerts.push({
            accountId: row.account_id,
            watchId: null,
            eventId: eventIdFor(row.account_id, a.kind, a.episodeKey),
            kind: a.kind,
            wallet: null,
            details: a.details,
            occurredAt: a.occurredAt,
          });
        }
      }
    } else if (markets?.error) {
      next.marketStatus = details.marketStatus;
    }
    const supply = stats?.value?.paperSupply;
    // No history yet (first observation): nothing measured, which seeds new rules as armed.
    const minted = supply === undefined ? undefined : (mintedLastHourMicro(details.supply ?? [], now, supply) ?? 0n);
    if (supply !== undefined) next.supply = addSupplySample(details.supply ?? [], now, supply);
    const following = new Set<string>();
    for (const row of rows) {
      if (!row.rules.mintRate.enabled) continue;
      following.add(row.account_id);
      if (minted === undefined) continue;
      const prev = mintStates.get(row.account_id);
      const result = evaluateMintRate(prev, row.rules, minted, this.config.ALERTS_REARM_MARGIN_PCT / 100);
      if (!prev || canonicalJson(prev) !== canonicalJson(result.state))
        writes.push({ scopeId: row.account_id, rule: 'mint_rate', state: result.state });
      for (const a of result.alerts) {
        alerts.push({
          accountId: row.account_id,
          watchId: null,
          eventId: eventIdFor(row.account_id, a.kind, a.episodeKey),
          kind: a.kind,
          wallet: null,
          details: a.details,
          occurredAt: a.occurredAt,
        });
      }
    }
    for (const accountId of mintStates.keys())
      if (!following.has(accountId)) writes.push({ scopeId: accountId, rule: 'mint_rate', state: null });
    const errors = [
      markets?.error && `markets: ${markets.error}`,
      stats?.error && `protocol stats: ${stats.error}`,
    ].filter(Boolean) as string[];
    const finishedAt = new Date();
    const { alertsCreated } = await this.writer.commit(
      {
        alerts,
        ruleStates: [],
        protocolStates: writes,
        poll: {
          name: PROTOCOL_POLL,
          startedAt,
          finishedAt,
          ok: errors.length === 0,
          error: errors.join('; ') || null,
          durationMs: finishedAt.getTime() - now,
          details: next,
        },
      },
      { generation: details.generation, confirm: lease ? () => lease.confirm() : undefined },
    );
    return {
      accounts: rows.length,
      alerts: alertsCreated,
      marketsOk: markets ? !markets.error : null,
      statsOk: stats ? !stats.error : null,
    };
  }
}
