import { Injectable } from '@nestjs/common';
import { refreshLifetimeVolume, rollUpDay } from '@paper/exchange-data';
import { DataSource } from 'typeorm';

/**
 * Rolls positions up into `daily_stats` (today, and yesterday during the first minutes of a day so its
 * last minute is not lost) and refreshes the lifetime volume. Each run recomputes the day: idempotent.
 */
@Injectable()
export class DailyStatsService {
  constructor(private readonly dataSource: DataSource) {}

  async rollup(day?: string, now = new Date()): Promise<string[]> {
    const days = day ? [day] : rollupDays(now);
    for (const d of days) await rollUpDay(this.dataSource, d);
    await refreshLifetimeVolume(this.dataSource);
    return days;
  }
}

export function rollupDays(now: Date): string[] {
  const today = now.toISOString().slice(0, 10);
  const minutesIntoDay = now.getUTCHours() * 60 + now.getUTCMinutes();
  if (minutesIntoDay >= 10) return [today];
  return [new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10), today];
}
