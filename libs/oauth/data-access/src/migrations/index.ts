import { CreateOauthSchema1763700000000 } from './1763700000000-create-oauth-schema';
import { CreateOauthTables1763700300000 } from './1763700300000-create-oauth-tables';
import { AddScopeStepUps1763700400000 } from './1763700400000-add-scope-step-ups';

/** Migrations of the `oauth` schema, oldest first. */
export const OAUTH_MIGRATIONS = [
  CreateOauthSchema1763700000000,
  CreateOauthTables1763700300000,
  AddScopeStepUps1763700400000,
];
