import { Inject, Injectable } from '@nestjs/common';
import { ChannelEntity, recordChannelFailure } from '@paper/alerts-data';
import {
  checkTarget,
  createSigningSecret,
  parseAllowHosts,
  SECRET_ROTATION_OVERLAP_MS,
  TargetNotAllowedError,
} from '@paper/alerts-delivery';
import { AlertsErrorCode } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { lockAccount } from '../accounts/account-lock';
import { AlertsException } from '../errors/alerts.exception';
import type { AlertsAccountsConfig } from '../config/alerts-accounts.config';
import type { ChannelView, CreateChannelDto, CreatedChannelView, RotatedSecretView } from './channel.dto';
import { assertChannelRoom } from './channel-limit';
import { normalizeDiscordTarget, toChannelView } from './channel-target';

@Injectable()
export class ChannelsService {
  private readonly allowHosts: string[];

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AlertsAccountsConfig,
  ) {
    this.allowHosts = parseAllowHosts(config.ALERTS_ALLOW_HOSTS);
  }

  async list(accountId: string): Promise<ChannelView[]> {
    const channels = await this.dataSource
      .getRepository(ChannelEntity)
      .find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return channels.map(toChannelView);
  }

  async get(accountId: string, id: string): Promise<ChannelEntity> {
    const channel = await this.dataSource.getRepository(ChannelEntity).findOneBy({ id, accountId });
    if (!channel) throw AlertsException.notFound('channel');
    return channel;
  }

  async create(accountId: string, dto: CreateChannelDto): Promise<CreatedChannelView> {
    const target = await this.validTarget(dto.kind, dto.target);
    const secret = dto.kind === 'webhook' ? createSigningSecret() : null;
    const channel = await this.dataSource.transaction(async (manager) => {
      await lockAccount(manager, accountId);
      const repo = manager.getRepository(ChannelEntity);
      await assertChannelRoom(manager, accountId);
      return repo.save(
        repo.create({
          id: randomUUID(),
          accountId,
          kind: dto.kind,
          target,
          secret,
          label: dto.label ?? null,
          status: 'active',
          disabledReason: null,
        }),
      );
    });
    return { ...toChannelView(channel), ...(secret ? { signingSecret: secret } : {}) };
  }

  /**
   * Gives a webhook channel a new signing secret; the one it replaces keeps signing beside it for
   * SECRET_ROTATION_OVERLAP_MS (a second rotation within that window drops the oldest).
   */
  async rotateSecret(accountId: string, id: string): Promise<RotatedSecretView> {
    const channel = await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(ChannelEntity);
      const found = await repo.findOne({ where: { id, accountId }, lock: { mode: 'pessimistic_write' } });
      if (!found) throw AlertsException.notFound('channel');
      if (found.kind !== 'webhook')
        throw new AlertsException(AlertsErrorCode.Conflict, `A ${found.kind} channel has no signing secret.`);
      found.previousSecret = found.secret;
      found.previousSecretExpiresAt = new Date(Date.now() + SECRET_ROTATION_OVERLAP_MS);
      found.secret = createSigningSecret();
      return repo.save(found);
    });
    return {
      ...toChannelView(channel),
      signingSecret: channel.secret!,
      previousSecretExpiresAt: channel.previousSecretExpiresAt!.toISOString(),
    };
  }

  async setStatus(accountId: string, id: string, status: 'active' | 'paused'): Promise<ChannelView> {
    const channel = await this.get(accountId, id);
    channel.status = status;
    if (status === 'active') channel.disabledReason = null;
    return toChannelView(await this.dataSource.getRepository(ChannelEntity).save(channel));
  }

  /**
   * The channel's receiver is gone for good (a test message found out): it is disabled and the account told
   * on its other active channels, exactly as when a delivery finds out. True when this call disabled it.
   */
  async disableGone(channel: ChannelEntity, reason: string): Promise<boolean> {
    const disabled = await this.dataSource.transaction((m) =>
      recordChannelFailure(m, channel.id, { kind: 'gone', reason }),
    );
    return disabled !== undefined;
  }

  async remove(accountId: string, id: string): Promise<void> {
    const result = await this.dataSource.getRepository(ChannelEntity).delete({ id, accountId });
    if (!result.affected) throw AlertsException.notFound('channel');
  }

  private async validTarget(kind: CreateChannelDto['kind'], raw: string): Promise<string> {
    if (kind === 'discord') {
      const target = normalizeDiscordTarget(raw);
      if (!target) {
        throw new AlertsException(
          AlertsErrorCode.ValidationFailed,
          'target must be a Discord webhook URL: https://discord.com/api/webhooks/{id}/{token}.',
        );
      }
      return target;
    }
    try {
      const checked = await checkTarget(raw.trim(), { allowHosts: this.allowHosts });
      return checked.url.toString();
    } catch (error) {
      if (error instanceof TargetNotAllowedError)
        throw new AlertsException(AlertsErrorCode.TargetNotAllowed, error.message);
      throw error;
    }
  }
}
