const UNITS: Record<string, number> = { m: 60, min: 60, h: 3600, d: 86_400 };
const DURATION = /^(\d{1,5})(m|min|h|d)$/i;

/** Seconds of a typed duration (`30m`, `2h`, `1d`), or undefined when it is none. */
export function parseDuration(raw: string): number | undefined {
  const match = DURATION.exec(raw.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
}

/** A duration in words: `30 min`, `2 h`, `1 d 6 h`. */
export function durationText(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return [d ? `${d} d` : '', h ? `${h} h` : '', m ? `${m} min` : ''].filter(Boolean).join(' ') || `${seconds} s`;
}
