/** Readings from an app's Prometheus endpoint (`<url>/metrics`) and from /proc, as the benchmarks take them. */
import { readdirSync, readFileSync } from 'node:fs';

async function metricLines(url: string): Promise<string[]> {
  return (await (await fetch(`${url}/metrics`)).text()).split('\n');
}

/** The first sample of a metric (any labels); NaN when the app does not report it. */
export async function metricValue(url: string, name: string): Promise<number> {
  const line = (await metricLines(url)).find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return Number(line?.split(' ').pop() ?? NaN);
}

/** The app's resident memory in MB (`process_resident_memory_bytes`). */
export async function residentMemoryMb(url: string): Promise<number> {
  return (await metricValue(url, 'process_resident_memory_bytes')) / 1e6;
}

/** Sum and count of a histogram series whose label set contains `labels` (e.g. `kind="open"`; '' for a histogram without labels). */
export async function histogramTotals(
  url: string,
  name: string,
  labels: string,
): Promise<{ sum: number; count: number }> {
  const lines = await metricLines(url);
  const matches = (l: string, series: string) =>
    labels === '' ? l.startsWith(`${series} `) : l.startsWith(`${series}{`) && l.includes(labels);
  const value = (suffix: string) =>
    Number(
      lines
        .find((l) => matches(l, `${name}_${suffix}`))
        ?.split(' ')
        .pop() ?? 0,
    );
  return { sum: value('sum'), count: value('count') };
}

/**
 * Resident memory of a local process in MB, read from /proc (Linux) without disturbing it: `VmRSS` now,
 * or `VmHWM`, its peak so far. Scraping /metrics instead makes the app count its open descriptors, which
 * with thousands of sockets stalls its event loop for the very latencies a benchmark measures.
 */
export function processMemoryMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, '') ?? NaN) / 1024;
}

/**
 * CPU seconds used so far by every local process whose command name is `comm` (e.g. `postgres`,
 * `redis-server`), from /proc (Linux, 100 clock ticks per second); processes that ended are not counted.
 */
export function commandCpuSeconds(comm: string): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== comm) continue;
    const fields = stat.slice(close + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
  }
  return ticks / 100;
}
