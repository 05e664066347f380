import { allowHostsEnvShape } from '@paper/alerts-delivery';
import { env } from '@paper/nest-infra';
import { z } from 'zod';

/** The settings the account rules read; every app that serves alerts accounts spreads this shape into its config. */
export const alertsAccountsEnvShape = {
  ...allowHostsEnvShape,
  ALERTS_MAX_WATCHES: env.positiveInt(100).describe('Watches per account.'),
};

export type AlertsAccountsConfig = z.infer<z.ZodObject<typeof alertsAccountsEnvShape>>;
