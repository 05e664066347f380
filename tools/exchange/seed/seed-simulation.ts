import { isLiquidatable, type Market, marketConfig, settle, type Side, usdc } from '@paper/exchange';
import { depositProxyAddress } from '@paper/exchange-signing';
import { pricePath, RALLY_STEPS, STEP_MS } from './price-path';
import { Prng } from './prng';
import { SeedBook, type SeedPosition, type WalletState } from './seed-book';
import { seedWallets } from './seed-wallets';

export interface SeedOptions {
  wallets: number;
  days: number;
  seed: number;
  /** Prices the history ends at (the venue's current prices), as decimal strings. */
  anchors: Record<Market, string>;
  now: Date;
}

interface Whale {
  margin: bigint;
  closeStep: number;
}

type Event =
  | { step: number; seq: number; kind: 'join'; w: number }
  | {
      step: number;
      seq: number;
      kind: 'open';
      w: number;
      market: Market;
      side: Side;
      leverage: number;
      fraction: number;
      hold: number;
    }
  | { step: number; seq: number; kind: 'end'; p: SeedPosition; liquidated: boolean }
  | { step: number; seq: number; kind: 'hour' };

const LEVERAGES: ReadonlyArray<readonly [number, number]> = [
  [2, 4],
  [3, 5],
  [5, 10],
  [10, 14],
  [20, 14],
  [25, 10],
  [50, 12],
  [75, 6],
  [100, 9],
  [150, 4],
  [200, 5],
  [250, 3],
  [500, 3],
  [1000, 1],
];
const WHALES = 10;
const WHALE_LEVERAGE = 20;

/** Simulates 30 days of trading with the exchange's formulas; deterministic for a given seed and clock. */
export function simulateExchange(options: SeedOptions): { book: SeedBook; steps: number; startMs: number } {
  const first = run(options, []);
  // Size the rally whales so their wins exceed what the LP holds when they close: the payout queue fills.
  const steps = first.steps;
  const lpAtEnd = first.lpByStep.slice(steps - 12).reduce((m, v) => (v > m ? v : m), 0n);
  const target = (lpAtEnd * 3n) / 2n + usdc(100_000);
  const whales = sizeWhales(options, target / BigInt(WHALES), steps);
  return run(options, whales);
}

function run(options: SeedOptions, whales: readonly Whale[]) {
  const steps = options.days * 288;
  const startMs = Math.floor(options.now.getTime() / STEP_MS) * STEP_MS - steps * STEP_MS;
  const at = (step: number) => new Date(startMs + step * STEP_MS);
  const paths: Record<Market, bigint[]> = {
    BTC: pricePath('BTC', options.anchors.BTC, steps, options.seed + 1),
    ETH: pricePath('ETH', options.anchors.ETH, steps, options.seed + 2),
  };
  const book = new SeedBook();
  const rng = new Prng(options.seed);
  const people = seedWallets(options.wallets + whales.length, options.seed);
  const state: WalletState[] = [];
  const stakers = new Set<number>();
  const heap = new EventHeap();
  let seq = 0;
  for (let w = 0; w < options.wallets; w += 1) {
    const join = Math.floor(rng.next() ** 1.6 * (steps - 36));
    heap.push({ step: join, seq: seq++, kind: 'join', w });
    if (rng.chance(0.25)) stakers.add(w);
    const trades = rng.logInt(4, 90);
    const style = rng.int(0, LEVERAGES.length - 1);
    for (let i = 0; i < trades; i += 1) {
      const leverage = rng.chance(0.6)
        ? LEVERAGES[Math.min(LEVERAGES.length - 1, Math.max(0, style + rng.int(-2, 2)))]![0]
        : rng.weighted(LEVERAGES);
      heap.push({
        step: rng.int(join + 1, steps - 1),
        seq: seq++,
        kind: 'open',
        w,
        market: rng.chance(0.65) ? 'BTC' : 'ETH',
        side: rng.chance(0.52) ? 'long' : 'short',
        leverage,
        fraction: rng.int(3, 30),
        hold: rng.logInt(1, 864),
      });
    }
  }
  for (let h = 12; h <= steps; h += 12) heap.push({ step: h, seq: seq++, kind: 'hour' });
  whales.forEach((whale, i) => {
    heap.push({ step: steps - RALLY_STEPS - 1, seq: seq++, kind: 'join', w: options.wallets + i });
    heap.push({
      step: steps - RALLY_STEPS,
      seq: seq++,
      kind: 'open',
      w: options.wallets + i,
      market: 'BTC',
      side: 'long',
      leverage: WHALE_LEVERAGE,
      fraction: -1,
      hold: whale.closeStep - (steps - RALLY_STEPS),
    });
  });

  const lpByStep: bigint[] = new Array(steps + 1).fill(0n);
  let lastStep = 0;
  for (let e = heap.pop(); e; e = heap.pop()) {
    for (; lastStep < e.step; lastStep += 1) lpByStep[lastStep] = book.pool.lpMicro + book.pool.parkedMicro;
    const time = at(e.step);
    if (e.kind === 'join') {
      const person = people[e.w]!;
      state[e.w] = book.addWallet(
        person.address,
        e.w >= options.wallets ? `rally_whale_${e.w - options.wallets + 1}` : person.displayName,
        depositProxyAddress(person.address),
        time,
      );
      const whale = whales[e.w - options.wallets];
      book.deposit(state[e.w]!, whale ? whale.margin + usdc(1_001) : usdc(rng.logInt(300, 80_000)), time);
    } else if (e.kind === 'open') {
      const w = state[e.w]!;
      const entry = paths[e.market][e.step]!;
      const whale = whales[e.w - options.wallets];
      let margin = whale ? whale.margin : (((w.free + w.queued) * BigInt(e.fraction)) / 100n / 1_000_000n) * 1_000_000n;
      const floor = (usdc(10_000) + BigInt(e.leverage) - 1n) / BigInt(e.leverage);
      if (margin < floor) margin = ((floor + 999_999n) / 1_000_000n) * 1_000_000n;
      if (margin < usdc(10)) margin = usdc(10);
      if (margin > w.free + w.queued && !whale && rng.chance(0.35))
        book.deposit(w, usdc(rng.logInt(500, 20_000)) + margin, time);
      const p = book.open(w, e.market, e.side, margin, e.leverage, entry, time);
      if (p) {
        const end = endOf(p, paths[p.market], e.step, Math.min(steps, e.step + e.hold));
        if (end) heap.push({ step: end.step, seq: seq++, kind: 'end', p, liquidated: end.liquidated });
      }
    } else if (e.kind === 'end') {
      const mark = paths[e.p.market][e.step]!;
      if (e.liquidated) book.liquidate(e.p, mark, time);
      else book.close(e.p, mark, time);
    } else {
      book.harvest(time);
      book.snapshot(time, { BTC: paths.BTC[e.step]!, ETH: paths.ETH[e.step]! });
      for (const w of stakers) {
        const s = state[w];
        if (s && s.paper > 0n && rng.chance(0.03)) {
          const amount = (s.paper * 6n) / 10n;
          s.paper -= amount;
          s.staked += amount;
        }
      }
    }
  }
  for (; lastStep <= steps; lastStep += 1) lpByStep[lastStep] = book.pool.lpMicro + book.pool.parkedMicro;
  return { book, steps, startMs, lpByStep, paths };
}

/** When an opened position ends: liquidated at the first mark past its bust price, else closed at `until`. */
function endOf(
  p: SeedPosition,
  path: readonly bigint[],
  from: number,
  until: number,
): { step: number; liquidated: boolean } | null {
  for (let s = from + 1; s <= until; s += 1) {
    const mark = path[s]!;
    if (isLiquidatable(p.side, mark, p.bust)) return { step: s, liquidated: true };
  }
  return until < path.length - 1 ? { step: until, liquidated: false } : null;
}

function sizeWhales(options: SeedOptions, share: bigint, steps: number): Whale[] {
  const path = pricePath('BTC', options.anchors.BTC, steps, options.seed + 1);
  const entry = path[steps - RALLY_STEPS]!;
  return Array.from({ length: WHALES }, (_, i) => {
    const closeStep = steps - 2 - i;
    const payout = (margin: bigint) =>
      settle({
        side: 'long',
        entry,
        exit: path[closeStep]!,
        marginMicro: margin,
        leverage: WHALE_LEVERAGE,
        config: marketConfig('BTC'),
      }).payoutMicro;
    let lo = 500n;
    let hi = 500_000n;
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if (payout(usdc(mid)) >= share) hi = mid;
      else lo = mid + 1n;
    }
    return { margin: usdc(lo), closeStep };
  });
}

/** A binary min-heap of events by (step, seq). */
class EventHeap {
  private readonly items: Event[] = [];

  push(e: Event): void {
    const a = this.items;
    a.push(e);
    for (let i = a.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }

  pop(): Event | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!, a[m]!)) m = l;
        if (r < a.length && before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

function before(a: Event, b: Event): boolean {
  return a.step < b.step || (a.step === b.step && a.seq < b.seq);
}
