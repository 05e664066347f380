import { Inject, Injectable } from '@nestjs/common';
import { AlertsAccountEntity } from '@paper/alerts-data';
import { ALERTS_LIMITS } from '@paper/alerts-delivery';
import { APP_CONFIG } from '@paper/nest-infra';
import { DataSource } from 'typeorm';
import { AlertsException } from '../errors/alerts.exception';
import { createAccountToken } from './account-token';
import { ChannelsService } from '../channels/channels.service';
import type { AlertsAccountsConfig } from '../config/alerts-accounts.config';
import { ProtocolRulesService } from '../protocol-rules/protocol-rules.service';
import { WatchesService } from '../watches/watches.service';
import type { CreatedAccountView, MeView } from './account.dto';

@Injectable()
export class AccountsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AlertsAccountsConfig,
    private readonly watches: WatchesService,
    private readonly channels: ChannelsService,
    private readonly protocolRules: ProtocolRulesService,
  ) {}

  async create(): Promise<CreatedAccountView> {
    const { accountId, token, tokenHash } = createAccountToken();
    const repo = this.dataSource.getRepository(AlertsAccountEntity);
    const account = await repo.save(repo.create({ id: accountId, tokenHash }));
    return { account: { id: account.id, createdAt: account.createdAt.toISOString() }, token };
  }

  /**
   * Issues a new token for the account and hands it to `deliver`. It is stored before it is handed over,
   * so it works the moment its owner reads it; when it was not delivered the previous token is put back
   * (unless yet another replaced it meanwhile), so a token that never reached its owner never locks them out.
   */
  async replaceToken(accountId: string, deliver: (token: string) => Promise<boolean>): Promise<boolean> {
    const repo = this.dataSource.getRepository(AlertsAccountEntity);
    const account = await repo.findOneBy({ id: accountId });
    if (!account) throw AlertsException.notFound('account');
    const { token, tokenHash } = createAccountToken(accountId);
    await repo.update({ id: accountId }, { tokenHash });
    let delivered = false;
    try {
      delivered = await deliver(token);
    } finally {
      if (!delivered) await repo.update({ id: accountId, tokenHash }, { tokenHash: account.tokenHash });
    }
    return delivered;
  }

  async me(accountId: string): Promise<MeView> {
    const account = await this.dataSource.getRepository(AlertsAccountEntity).findOneBy({ id: accountId });
    if (!account) throw AlertsException.notFound('account');
    const [watches, channels, protocolRules] = await Promise.all([
      this.watches.list(accountId),
      this.channels.list(accountId),
      this.protocolRules.get(accountId),
    ]);
    return {
      account: { id: account.id, createdAt: account.createdAt.toISOString() },
      limits: { watches: this.config.ALERTS_MAX_WATCHES, channels: ALERTS_LIMITS.channelsPerAccount },
      watches,
      channels,
      protocolRules,
    };
  }

  /**
   * Deletes the account and everything under it (one cascade; pending deliveries go with it, so no dispatcher sends
   * them).
   */
  async remove(accountId: string): Promise<void> {
    await this.dataSource.getRepository(AlertsAccountEntity).delete({ id: accountId });
  }
}
