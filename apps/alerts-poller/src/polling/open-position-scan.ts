import { LEADERBOARD_PAGE_SIZE } from '@paper/contracts';
import type { LeaderboardData } from '../tool-api/tool-data';

/** The leaderboard pages the tool API serves at most (page numbers 0..1000). */
export const SCAN_LAST_PAGE = 1000;

/**
 * A leaderboard page reflects the exchange up to 5 s (the public cache) before it was read; a scan
 * speaks only for watches that existed, unchanged, this long before it started.
 */
export const SCAN_MARGIN_MS = 10_000;

/**
 * Progress of a scan of every trader, in address order (`get_leaderboard`, window `all`, sorted by
 * address, 25 rows a page, each with its open-position count). It tells, for many new watches at once,
 * which wallets have open positions: only those need an account read before liquidation risk is
 * covered; the others have no position to watch. Rows are only ever added to this listing (a wallet
 * stays once it has traded), so a page read later can repeat rows but never skip one; a wallet that is
 * not listed has never traded. Kept in the wallet poll document between cycles.
 */
export interface ScanState {
  /** When the scan began (ms): it speaks for watches changed before `startedAt - SCAN_MARGIN_MS`. */
  startedAt: number;
  nextPage: number;
  totalPages: number | null;
  /** Highest address listed on the pages read so far (contiguous from page 0). */
  coveredTo: string | null;
  /** Every trader is covered (the last page was read). */
  coveredAll: boolean;
  /** No more pages will be read (the last page, or the page limit, was reached). */
  complete: boolean;
  /** Wallets the scan was asked about that have open positions (they need an account read). */
  open: string[];
}

/** What a scan says about a wallet of a watch whose positions are not known yet. */
export type ScanVerdict = 'empty' | 'open' | 'waiting' | 'uncovered' | 'ineligible';

export function startScan(now: number): ScanState {
  return {
    startedAt: now,
    nextPage: 0,
    totalPages: null,
    coveredTo: null,
    coveredAll: false,
    complete: false,
    open: [],
  };
}

/** `open` is `scan.open` as a set, when the caller asks about many wallets. */
export function scanVerdict(
  scan: ScanState,
  address: string,
  changedAt: Date,
  open: ReadonlySet<string> = new Set(scan.open),
): ScanVerdict {
  if (changedAt.getTime() > scan.startedAt - SCAN_MARGIN_MS) return 'ineligible';
  if (open.has(address)) return 'open';
  if (scan.coveredAll || (scan.coveredTo !== null && address <= scan.coveredTo)) return 'empty';
  return scan.complete ? 'uncovered' : 'waiting';
}

/** Pages to read next, at most `budget` (none once complete; never past the last known page). */
export function nextScanPages(scan: ScanState, budget: number): number[] {
  if (scan.complete || budget <= 0) return [];
  const last = Math.min(SCAN_LAST_PAGE, scan.totalPages === null ? SCAN_LAST_PAGE : Math.max(0, scan.totalPages - 1));
  const pages: number[] = [];
  for (let page = scan.nextPage; page <= last && pages.length < budget; page += 1) pages.push(page);
  return pages;
}

/**
 * Applies pages read this cycle, in page order, stopping at the first one that failed (`undefined`):
 * the scan continues from there next cycle. `asked` are the wallets whose verdict matters.
 */
export function advanceScan(
  scan: ScanState,
  pages: readonly { page: number; data: LeaderboardData | undefined }[],
  asked: ReadonlySet<string>,
): ScanState {
  const next: ScanState = { ...scan, open: [...scan.open] };
  const open = new Set(scan.open);
  for (const { page, data } of [...pages].sort((a, b) => a.page - b.page)) {
    if (page !== next.nextPage || !data) break;
    for (const row of data.rows) {
      const address = row.address.toLowerCase();
      if (row.currentOpenPositionCount > 0 && asked.has(address) && !open.has(address)) {
        open.add(address);
        next.open.push(address);
      }
      if (next.coveredTo === null || address > next.coveredTo) next.coveredTo = address;
    }
    next.totalPages = data.totalPages;
    next.nextPage = page + 1;
    if (data.rows.length < LEADERBOARD_PAGE_SIZE || next.nextPage >= data.totalPages) {
      next.coveredAll = true;
      next.complete = true;
    } else if (page >= SCAN_LAST_PAGE) {
      next.complete = true;
    }
  }
  return next;
}

/** Pages a full scan needs, from the last known size of the listing (1 before any page was read). */
export function scanCost(knownTotalPages: number | undefined): number {
  return Math.min(SCAN_LAST_PAGE + 1, Math.max(1, knownTotalPages ?? 1));
}
