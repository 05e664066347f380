import type { Provider } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import { SessionKeyVault } from '@paper/session-key-vault';
import type { OauthServerConfig } from '../config/oauth-server.config';

/** The vault sealing session-key private keys with SESSION_KEY_ENCRYPTION_KEY (old keys still open). */
export const sessionKeyVaultProvider: Provider = {
  provide: SessionKeyVault,
  inject: [APP_CONFIG],
  useFactory: (config: OauthServerConfig) =>
    new SessionKeyVault(config.SESSION_KEY_ENCRYPTION_KEY, config.SESSION_KEY_ENCRYPTION_KEYS_OLD),
};
