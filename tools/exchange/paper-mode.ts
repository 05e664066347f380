import { env } from '@paper/nest-infra';
import { z } from 'zod';

/** The same rule as trading-executor's /dev endpoints: PAPER_MODE (default true) and NODE_ENV not production. */
const paperModeEnv = z.object({ PAPER_MODE: env.bool(true), NODE_ENV: env.nodeEnv() });

/**
 * Why a paper-mode-only command must not run in this environment, or null when it may. Paper mode is
 * where simulated chain balances exist (faucet, deposits to the proxy, withdrawals); outside it, or
 * with NODE_ENV=production, the command refuses like the executor's /dev endpoints (which answer 404).
 */
export function paperModeRefusal(command: string, environment: Record<string, string | undefined>): string | null {
  const parsed = paperModeEnv.safeParse(environment);
  if (!parsed.success) {
    return `${command} refused: PAPER_MODE must be true/false/1/0 and NODE_ENV development/test/production (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')} is not).`;
  }
  if (!parsed.data.PAPER_MODE) {
    return `${command} works only in paper mode, and PAPER_MODE is false: there are no simulated chain balances to use. Set PAPER_MODE=true (outside production) to use it.`;
  }
  if (parsed.data.NODE_ENV === 'production') {
    return `${command} works only in paper mode outside production, and NODE_ENV is production: nothing was done.`;
  }
  return null;
}
