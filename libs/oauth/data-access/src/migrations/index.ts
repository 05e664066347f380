import { CreateOauthSchema1763700000000 } from './1763700000000-create-oauth-schema';
import { CreateOauthTables1763700300000 } from './1763700300000-create-oauth-tables';

/** Migrations of the `oauth` schema, oldest first. */
export const OAUTH_MIGRATIONS = [CreateOauthSchema1763700000000, CreateOauthTables1763700300000];
