import { Inject, Injectable } from '@nestjs/common';
import { PollStatusEntity } from '@paper/alerts-data';
import { ALERTS_LIMITS, SIGNATURE_TOLERANCE_SECONDS } from '@paper/alerts-delivery';
import { PROTOCOL_RULE_RANGES, WALLET_RULE_RANGES } from '@paper/contracts';
import { APP_CONFIG } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import { PAGE_MAX } from '@paper/alerts-accounts';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import { StorageReadiness } from '../storage/storage-readiness.service';
import type { PollView, StatusView } from './status.dto';

@Injectable()
export class StatusService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
    private readonly readiness: StorageReadiness,
  ) {}

  get telegramConfigured(): boolean {
    return Boolean(this.config.TELEGRAM_BOT_TOKEN && this.config.TELEGRAM_BOT_USERNAME);
  }

  async status(): Promise<StatusView> {
    const ready = await this.readiness.isReady();
    return {
      ready,
      channels: { discord: true, webhook: true, telegram: this.telegramConfigured },
      limits: {
        watchesPerAccount: this.config.ALERTS_MAX_WATCHES,
        channelsPerAccount: ALERTS_LIMITS.channelsPerAccount,
        testMessagesPerMinute: ALERTS_LIMITS.testMessagesPerMinute,
        telegramLinkCodeMinutes: ALERTS_LIMITS.telegramLinkCodeMinutes,
        pageSizeMax: PAGE_MAX,
        webhookSignatureToleranceSeconds: SIGNATURE_TOLERANCE_SECONDS,
        ruleRanges: { ...WALLET_RULE_RANGES, ...PROTOCOL_RULE_RANGES },
      },
      lastScheduledPoll: ready ? await this.lastPoll() : null,
      notice: 'Alerts are best effort. This service is unofficial and not affiliated with the exchange.',
    };
  }

  private async lastPoll(): Promise<PollView | null> {
    try {
      const [row] = await this.dataSource
        .getRepository(PollStatusEntity)
        .find({ order: { lastStartedAt: { direction: 'DESC', nulls: 'LAST' } }, take: 1 });
      if (!row) return null;
      return {
        name: row.name,
        startedAt: row.lastStartedAt?.toISOString() ?? null,
        finishedAt: row.lastFinishedAt?.toISOString() ?? null,
        ok: row.lastOk,
      };
    } catch {
      return null;
    }
  }
}
