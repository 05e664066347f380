import { trader, traderPage } from '../testing/tool-fixtures';
import type { LeaderboardData } from '../tool-api/tool-data';
import {
  advanceScan,
  nextScanPages,
  SCAN_LAST_PAGE,
  SCAN_MARGIN_MS,
  scanCost,
  scanVerdict,
  startScan,
} from './open-position-scan';

const T0 = Date.parse('2030-01-02T00:00:00Z');
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const page = (numbers: number[], open: number[], totalPages: number): LeaderboardData =>
  traderPage(
    Math.floor((numbers[0] ?? 0) / 25),
    numbers.map((n) => trader(addr(n), { currentOpenPositionCount: open.includes(n) ? 2 : 0 })),
    totalPages * 25,
  );
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const before = new Date(T0 - SCAN_MARGIN_MS - 1);

describe('open-position scan', () => {
  it('covers the listing page by page: wallets seen with positions need a read, the rest have none', () => {
    const asked = new Set([addr(3), addr(30), addr(31), addr(60), addr(90)]);
    let scan = startScan(T0);
    scan = advanceScan(
      scan,
      [
        { page: 1, data: page(range(25, 25), [30], 3) },
        { page: 0, data: page(range(0, 25), [3, 4], 3) },
      ],
      asked,
    );
    expect(scan).toMatchObject({
      nextPage: 2,
      totalPages: 3,
      coveredTo: addr(49),
      complete: false,
      open: [addr(3), addr(30)],
    });
    expect(scanVerdict(scan, addr(3), before)).toBe('open');
    expect(scanVerdict(scan, addr(31), before)).toBe('empty');
    expect(scanVerdict(scan, addr(60), before)).toBe('waiting');
    expect(scanVerdict(scan, addr(31), new Date(T0))).toBe('ineligible');
    expect(nextScanPages(scan, 10)).toEqual([2]);
    scan = advanceScan(scan, [{ page: 2, data: page(range(50, 20), [], 3) }], asked);
    expect(scan).toMatchObject({ complete: true, coveredAll: true });
    expect(scanVerdict(scan, addr(90), before)).toBe('empty');
    expect(nextScanPages(scan, 10)).toEqual([]);
  });

  it('stops at the first failed page and continues from it next cycle', () => {
    const scan = advanceScan(
      startScan(T0),
      [
        { page: 0, data: page(range(0, 25), [], 9) },
        { page: 1, data: undefined },
        { page: 2, data: page(range(50, 25), [], 9) },
      ],
      new Set(),
    );
    expect(scan).toMatchObject({ nextPage: 1, coveredTo: addr(24) });
    expect(nextScanPages(scan, 3)).toEqual([1, 2, 3]);
  });

  it('leaves wallets past the page limit uncovered (they are read instead)', () => {
    const scan = advanceScan(
      { ...startScan(T0), nextPage: SCAN_LAST_PAGE, coveredTo: addr(100) },
      [{ page: SCAN_LAST_PAGE, data: page(range(200, 25), [], 5000) }],
      new Set(),
    );
    expect(scan).toMatchObject({ complete: true, coveredAll: false });
    expect(scanVerdict(scan, addr(220), before)).toBe('empty');
    expect(scanVerdict(scan, addr(300), before)).toBe('uncovered');
  });

  it('costs one page per 25 traders, at most the page limit', () => {
    expect(scanCost(undefined)).toBe(1);
    expect(scanCost(400)).toBe(400);
    expect(scanCost(5000)).toBe(SCAN_LAST_PAGE + 1);
  });
});
