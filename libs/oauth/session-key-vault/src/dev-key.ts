/**
 * The development-only SESSION_KEY_ENCRYPTION_KEY default shared by oauth-server (which encrypts) and the
 * tool API (which decrypts). Every app's config schema must refuse it when NODE_ENV=production.
 */
export const DEV_SESSION_KEY_ENCRYPTION_KEY = 'dev-only-session-key-encryption-key-change-me-in-production';
