import { Inject, Injectable } from '@nestjs/common';
import { WatchEntity } from '@paper/alerts-data';
import { AlertsErrorCode, DEFAULT_WALLET_RULES, mergeWalletRules, type WalletRulesPatch } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { lockAccount, plain } from '../accounts/account-lock';
import { AlertsException } from '../errors/alerts.exception';
import type { AlertsAccountsConfig } from '../config/alerts-accounts.config';
import { ADDRESS_PATTERN, type CreateWatchDto, type UpdateWatchDto, type WatchView } from './watch.dto';
import { toWatchView } from './watch-view';

/** The longest mute (30 days) and the longest cooldown (1 day) of a watch, in seconds. */
export const MUTE_MAX_S = 30 * 86_400;
export const COOLDOWN_MAX_S = 86_400;
/** The shortest mute and the shortest cooldown other than none (1 minute). */
export const QUIET_MIN_S = 60;

/** When a watch's alerts are held back: muted until a time, and a cooldown between two of them. */
export interface WatchQuietTimes {
  mutedUntil: Date | null;
  cooldownS: number;
}

@Injectable()
export class WatchesService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AlertsAccountsConfig,
  ) {}

  async list(accountId: string): Promise<WatchView[]> {
    const watches = await this.dataSource
      .getRepository(WatchEntity)
      .find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return watches.map(toWatchView);
  }

  async get(accountId: string, id: string): Promise<WatchView> {
    const watch = await this.dataSource.getRepository(WatchEntity).findOneBy({ id, accountId });
    if (!watch) throw AlertsException.notFound('watch');
    return toWatchView(watch);
  }

  /** Watches named by an address (any case) or, failing that, by their label (case-insensitive). */
  async match(accountId: string, ref: string): Promise<WatchView[]> {
    const query = this.dataSource
      .getRepository(WatchEntity)
      .createQueryBuilder('w')
      .where('w.account_id = :accountId', { accountId });
    if (ADDRESS_PATTERN.test(ref)) query.andWhere('w.address = :address', { address: ref.toLowerCase() });
    else query.andWhere('lower(w.label) = lower(:label)', { label: ref });
    return (await query.orderBy('w.created_at', 'ASC').addOrderBy('w.id', 'ASC').getMany()).map(toWatchView);
  }

  /**
   * Idempotent per (address, role): an existing watch is returned with the same id, with any label or
   * rules of the request applied to it (rules merge like a PATCH). `created` tells which case it was.
   */
  async create(accountId: string, dto: CreateWatchDto): Promise<{ watch: WatchView; created: boolean }> {
    const address = dto.address.toLowerCase();
    const role = dto.role ?? null;
    const patch = plain(dto.rules) as WalletRulesPatch | undefined;
    return this.dataSource.transaction(async (manager) => {
      await lockAccount(manager, accountId);
      const repo = manager.getRepository(WatchEntity);
      const existing = await repo.findOneBy({ accountId, address, role: role ?? IsNull() });
      if (existing) {
        if (patch) existing.rules = mergeWalletRules(existing.rules, patch);
        if (dto.label !== undefined) existing.label = dto.label;
        const saved = patch || dto.label !== undefined ? await repo.save(existing) : existing;
        return { watch: toWatchView(saved), created: false };
      }
      const count = await repo.countBy({ accountId });
      if (count >= this.config.ALERTS_MAX_WATCHES) {
        throw new AlertsException(
          AlertsErrorCode.LimitReached,
          `An account can have at most ${this.config.ALERTS_MAX_WATCHES} watches. Delete one first.`,
        );
      }
      const watch = repo.create({
        id: randomUUID(),
        accountId,
        address,
        role,
        label: dto.label ?? null,
        rules: mergeWalletRules(DEFAULT_WALLET_RULES, patch),
      });
      return { watch: toWatchView(await repo.save(watch)), created: true };
    });
  }

  /**
   * Partial update under a row lock: concurrent patches of the same watch are applied one after the
   * other, each merged into the rules the previous one saved, so none is lost.
   */
  async update(accountId: string, id: string, dto: UpdateWatchDto): Promise<WatchView> {
    const patch = dto.rules ? (plain(dto.rules) as WalletRulesPatch) : undefined;
    return this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(WatchEntity);
      const watch = await repo.findOne({ where: { id, accountId }, lock: { mode: 'pessimistic_write' } });
      if (!watch) throw AlertsException.notFound('watch');
      if (patch) watch.rules = mergeWalletRules(watch.rules, patch);
      if (dto.label !== undefined) watch.label = dto.label;
      return toWatchView(await repo.save(watch));
    });
  }

  /** The quiet times of the account's watches (mute and cooldown), by watch id; watches without any are left out. */
  async quietTimes(accountId: string): Promise<Map<string, WatchQuietTimes>> {
    const rows = await this.dataSource
      .getRepository(WatchEntity)
      .find({ where: { accountId }, select: { id: true, mutedUntil: true, cooldownS: true } });
    const now = Date.now();
    return new Map(
      rows
        .map((r) => ({
          id: r.id,
          mutedUntil: r.mutedUntil && r.mutedUntil.getTime() > now ? r.mutedUntil : null,
          cooldownS: r.cooldownS,
        }))
        .filter((r) => r.mutedUntil || r.cooldownS > 0)
        .map(({ id, ...quiet }) => [id, quiet]),
    );
  }

  /** Holds back the watch's alerts until `until` (null lifts the mute); they are still recorded. */
  async mute(accountId: string, id: string, until: Date | null): Promise<void> {
    const seconds = until ? (until.getTime() - Date.now()) / 1000 : 0;
    if (until && (seconds < QUIET_MIN_S - 1 || seconds > MUTE_MAX_S))
      throw new AlertsException(AlertsErrorCode.ValidationFailed, 'A mute lasts from 1 minute to 30 days.');
    const result = await this.dataSource.getRepository(WatchEntity).update({ id, accountId }, { mutedUntil: until });
    if (!result.affected) throw AlertsException.notFound('watch');
  }

  /** Sends at most one alert of the watch per channel per `seconds` (0: no cooldown). */
  async setCooldown(accountId: string, id: string, seconds: number): Promise<void> {
    if (!Number.isInteger(seconds) || seconds < 0 || seconds > COOLDOWN_MAX_S || (seconds > 0 && seconds < QUIET_MIN_S))
      throw new AlertsException(AlertsErrorCode.ValidationFailed, 'A cooldown is off (0) or lasts 1 minute to 1 day.');
    const result = await this.dataSource.getRepository(WatchEntity).update({ id, accountId }, { cooldownS: seconds });
    if (!result.affected) throw AlertsException.notFound('watch');
  }

  async remove(accountId: string, id: string): Promise<void> {
    const result = await this.dataSource.getRepository(WatchEntity).delete({ id, accountId });
    if (!result.affected) throw AlertsException.notFound('watch');
  }
}
