import { ConsentRequestEntity } from './entities/consent-request.entity';
import { OidcModelEntity } from './entities/oidc-model.entity';
import { PendingRevocationEntity } from './entities/pending-revocation.entity';
import { ScopeStepUpEntity } from './entities/scope-step-up.entity';
import { SessionKeySecretEntity } from './entities/session-key-secret.entity';
import { SigningKeyEntity } from './entities/signing-key.entity';
import { WalletChallengeEntity } from './entities/wallet-challenge.entity';
import { WalletSessionEntity } from './entities/wallet-session.entity';

/** Every TypeORM entity of the `oauth` schema. */
export const OAUTH_ENTITIES: Function[] = [
  OidcModelEntity,
  SigningKeyEntity,
  SessionKeySecretEntity,
  WalletChallengeEntity,
  WalletSessionEntity,
  ConsentRequestEntity,
  PendingRevocationEntity,
  ScopeStepUpEntity,
];
