import { Injectable } from '@nestjs/common';

export type HealthCheckFn = () => Promise<void>;

export interface ReadinessReport {
  status: 'ok' | 'not_ready' | 'shutting_down';
  checks: Record<string, 'up' | 'down'>;
  /** Why each check that is down failed (present only when one is down). */
  reasons?: Record<string, string>;
}

/** Readiness checks registered by the modules an app uses (database, redis, ...). */
@Injectable()
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheckFn>();
  private shuttingDown = false;

  register(name: string, check: HealthCheckFn): void {
    this.checks.set(name, check);
  }

  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async readiness(timeoutMs = 2000): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => [name, await runWithTimeout(check, timeoutMs)] as const),
    );
    const checks = Object.fromEntries(
      entries.map(([name, failure]) => [name, failure === undefined ? 'up' : 'down']),
    ) as ReadinessReport['checks'];
    const failures = entries.filter((entry): entry is readonly [string, string] => entry[1] !== undefined);
    const status = this.shuttingDown ? 'shutting_down' : failures.length === 0 ? 'ok' : 'not_ready';
    return failures.length === 0 ? { status, checks } : { status, checks, reasons: Object.fromEntries(failures) };
  }
}

/** Runs a check; resolves to undefined when it passed, else to why it failed. */
async function runWithTimeout(check: HealthCheckFn, timeoutMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}
