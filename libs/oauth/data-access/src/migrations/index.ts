import { CreateOauthSchema1763700000000 } from './1763700000000-create-oauth-schema';
import { CreateOauthTables1763700300000 } from './1763700300000-create-oauth-tables';
import { CreatePendingRevocations1763700400000 } from './1763700400000-create-pending-revocations';
import { AddScopeStepUps1763700500000 } from './1763700500000-add-scope-step-ups';

/** Migrations of the `oauth` schema, oldest first. */
export const OAUTH_MIGRATIONS = [
  CreateOauthSchema1763700000000,
  CreateOauthTables1763700300000,
  CreatePendingRevocations1763700400000,
  AddScopeStepUps1763700500000,
];
