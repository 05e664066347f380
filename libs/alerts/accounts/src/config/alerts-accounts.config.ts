import { env } from '@paper/nest-infra';
import { z } from 'zod';

/** The settings the account rules read; every app that serves alerts accounts spreads this shape into its config. */
export const alertsAccountsEnvShape = {
  ALERTS_ALLOW_HOSTS: z
    .string()
    .default('')
    .describe(
      'Comma-separated host or host:port entries whose private/loopback addresses may receive webhooks (development and tests only).',
    ),
  ALERTS_MAX_WATCHES: env.positiveInt(100).describe('Watches per account.'),
};

export type AlertsAccountsConfig = z.infer<z.ZodObject<typeof alertsAccountsEnvShape>>;
