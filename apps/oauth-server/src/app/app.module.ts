import { type DynamicModule, Module } from '@nestjs/common';
import { InfraModule, QueueModule } from '@paper/nest-infra';
import { createOauthDataSource } from '@paper/oauth-data';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { ConnectionsController } from '../connections/connections.controller';
import { ConnectionsService } from '../connections/connections.service';
import { ConsentController } from '../consent/consent.controller';
import { ConsentService } from '../consent/consent.service';
import { FaucetService } from '../faucet/faucet.service';
import { OidcProviderService } from '../provider/oidc-provider.service';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { sessionKeyVaultProvider } from '../session-keys/session-key-vault.provider';
import { RevocationSweeper } from '../session-keys/revocation-sweeper';
import { SessionKeyQueueEvents } from '../session-keys/session-key-queue-events';
import { SessionKeyRevocations } from '../session-keys/session-key-revocations.service';
import { SessionKeysService } from '../session-keys/session-keys.service';
import { WalletAuthService } from '../wallet-auth/wallet-auth.service';

@Module({})
export class AppModule {
  static forRoot(config: OauthServerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfraModule.forRoot({
          config,
          database: { create: createOauthDataSource, app: 'oauth-server' },
          redis: config,
        }),
        QueueModule,
      ],
      controllers: [ConsentController, ConnectionsController],
      providers: [
        OidcProviderService,
        SessionKeyQueueEvents,
        SessionKeysService,
        SessionKeyRevocations,
        RevocationSweeper,
        sessionKeyVaultProvider,
        WalletAuthService,
        ConsentService,
        ConnectionsService,
        FaucetService,
        RateLimitService,
      ],
    };
  }
}
