import { Injectable } from '@nestjs/common';

export type HealthCheckFn = () => Promise<void>;

export interface ReadinessReport {
  status: 'ok' | 'not_ready' | 'shutting_down';
  checks: Record<string, 'up' | 'down'>;
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
      [...this.checks].map(async ([name, check]) => [name, (await runWithTimeout(check, timeoutMs)) ? 'up' : 'down'] as const),
    );
    const checks = Object.fromEntries(entries) as Record<string, 'up' | 'down'>;
    const allUp = entries.every(([, state]) => state === 'up');
    const status = this.shuttingDown ? 'shutting_down' : allUp ? 'ok' : 'not_ready';
    return { status, checks };
  }
}

async function runWithTimeout(check: HealthCheckFn, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
