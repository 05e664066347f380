/** Injection token for the validated config object of the running app. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/** What every app config carries, whatever else its schema adds. */
export interface BaseAppConfig {
  NODE_ENV: 'development' | 'test' | 'production';
  LOG_LEVEL: string;
  HOST: string;
  TRUSTED_PROXIES: string[];
  PORT: number;
  SHUTDOWN_GRACE_MS: number;
}
