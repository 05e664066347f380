import { randomUUID } from 'node:crypto';
import {
  type AccountDelta,
  checkOpen,
  closeAccounting,
  distributeToStakers,
  evaluateDeposit,
  type LedgerLine,
  liquidationAccounting,
  type Market,
  marketConfig,
  openAccounting,
  outcomeAtExit,
  planHarvest,
  type PoolState,
  type PositionAccounting,
  PROTOCOL_OWNER,
  type Side,
  transfer,
  bustPrice,
  usdc,
} from '@paper/exchange';

export interface WalletState {
  address: string;
  displayName: string | null;
  depositAddress: string;
  free: bigint;
  locked: bigint;
  queued: bigint;
  paper: bigint;
  staked: bigint;
  stakingRewards: bigint;
  realized: bigint;
  volume: bigint;
  activated: boolean;
  createdAt: Date;
  lastActiveAt: Date;
  open: Set<SeedPosition>;
}

export interface SeedPosition {
  id: number;
  wallet: string;
  market: Market;
  side: Side;
  margin: bigint;
  leverage: number;
  notional: bigint;
  entry: bigint;
  bust: bigint;
  status: 'open' | 'closed' | 'liquidated';
  exit: bigint | null;
  pnl: bigint | null;
  fee: bigint;
  queued: bigint;
  minted: bigint;
  marginQueued: bigint;
  openedAt: Date;
  closedAt: Date | null;
}

export interface QueueRow {
  id: number;
  wallet: string;
  positionId: number;
  original: bigint;
  remaining: bigint;
  feeOriginal: bigint;
  feeRemaining: bigint;
  createdAt: Date;
  paidAt: Date | null;
}
export interface LedgerRow {
  txId: string;
  owner: string;
  bucket: string;
  amount: bigint;
  reason: string;
  ref: string | null;
  at: Date;
}
export interface DepositRow {
  wallet: string;
  proxy: string;
  amount: bigint;
  fee: bigint;
  at: Date;
}
export interface SnapshotRow {
  wallet: string;
  at: Date;
  equity: bigint;
  free: bigint;
  locked: bigint;
  unrealized: bigint;
}
export interface DayStats {
  volume: bigint;
  pnl: bigint;
  fees: bigint;
  liquidations: number;
  liquidated: bigint;
  users: Set<string>;
  newUsers: number;
  trades: number;
  lp: bigint;
}

/** The exchange's books during the seed simulation, moved only by the same pure functions as the executor. */
export class SeedBook {
  readonly wallets = new Map<string, WalletState>();
  readonly positions: SeedPosition[] = [];
  readonly queue: QueueRow[] = [];
  readonly ledger: LedgerRow[] = [];
  readonly deposits: DepositRow[] = [];
  readonly snapshots: SnapshotRow[] = [];
  readonly days = new Map<string, DayStats>();
  pool: PoolState = {
    lpMicro: 0n,
    parkedMicro: 0n,
    highWaterMicro: 0n,
    queueNotEmpty: false,
    feesPendingMicro: 0n,
    stakingReserveMicro: 0n,
  };
  feesCollected = 0n;
  paperMinted = 0n;
  sweptToStakers = 0n;

  addWallet(address: string, displayName: string | null, depositAddress: string, at: Date): WalletState {
    const w: WalletState = {
      address,
      displayName,
      depositAddress,
      free: 0n,
      locked: 0n,
      queued: 0n,
      paper: 0n,
      staked: 0n,
      stakingRewards: 0n,
      realized: 0n,
      volume: 0n,
      activated: false,
      createdAt: at,
      lastActiveAt: at,
      open: new Set(),
    };
    this.wallets.set(address, w);
    this.day(at).newUsers += 1;
    return w;
  }

  deposit(w: WalletState, amount: bigint, at: Date): void {
    const d = evaluateDeposit(amount, w.activated);
    if (!d.accepted) return;
    this.book(at, 'deposit', null, [
      ...transfer({ owner: PROTOCOL_OWNER, bucket: 'deposits' }, { owner: w.address, bucket: 'free' }, d.creditMicro),
      ...transfer(
        { owner: PROTOCOL_OWNER, bucket: 'deposits' },
        { owner: PROTOCOL_OWNER, bucket: 'activation_fees' },
        d.feeMicro,
      ),
    ]);
    w.free += d.creditMicro;
    w.activated = true;
    this.deposits.push({ wallet: w.address, proxy: w.depositAddress, amount, fee: d.feeMicro, at });
  }

  /** Opens at `entry` if the exchange's opening checks pass (else null, like a refused intent). */
  open(
    w: WalletState,
    market: Market,
    side: Side,
    margin: bigint,
    leverage: number,
    entry: bigint,
    at: Date,
  ): SeedPosition | null {
    const config = marketConfig(market);
    const check = checkOpen({
      market,
      side,
      marginMicro: margin,
      leverage,
      config,
      tradingEnabled: true,
      availableBalanceMicro: w.free + w.queued,
      sideOpenInterestMicro: 0n,
    });
    if (!check.ok) return null;
    const lock = openAccounting(w.address, w.free, w.queued, margin);
    const p: SeedPosition = {
      id: this.positions.length + 1,
      wallet: w.address,
      market,
      side,
      margin,
      leverage,
      notional: check.notionalMicro,
      entry,
      bust: bustPrice(side, entry, leverage, config.bustBuffer),
      status: 'open',
      exit: null,
      pnl: null,
      fee: 0n,
      queued: 0n,
      minted: 0n,
      marginQueued: lock.fromQueuedMicro,
      openedAt: at,
      closedAt: null,
    };
    this.positions.push(p);
    this.book(at, 'open', String(p.id), lock.lines);
    w.free -= lock.fromFreeMicro;
    w.queued -= lock.fromQueuedMicro;
    w.locked += margin;
    w.volume += p.notional;
    w.lastActiveAt = at;
    w.open.add(p);
    const day = this.day(at);
    day.volume += p.notional;
    day.trades += 1;
    day.users.add(w.address);
    return p;
  }

  close(p: SeedPosition, exit: bigint, at: Date): void {
    const acc = closeAccounting({ position: this.settling(p), exit, config: marketConfig(p.market), pool: this.pool });
    if (acc.outcome === 'liquidated') {
      this.settle(p, acc, 'liquidation', exit, at);
      this.liquidated(p, at);
      return;
    }
    this.settle(p, acc, 'close', exit, at);
    p.status = 'closed';
    this.day(at).trades += 1;
    this.day(at).fees += acc.feeMicro;
  }

  liquidate(p: SeedPosition, mark: bigint, at: Date): void {
    const acc = liquidationAccounting({ position: this.settling(p), pool: this.pool });
    this.settle(p, acc, 'liquidation', mark, at);
    this.liquidated(p, at);
  }

  private liquidated(p: SeedPosition, at: Date): void {
    p.status = 'liquidated';
    this.day(at).liquidations += 1;
    this.day(at).liquidated += p.margin;
  }

  /** The periodic harvest, and staker rewards (win fees, LP above the cap). */
  harvest(at: Date, lpCap = usdc(5_000_000)): void {
    const pending = this.queue.filter((q) => q.paidAt === null);
    const plan = planHarvest(
      this.pool,
      pending.map((q) => ({ id: String(q.id), wallet: q.wallet, amountMicro: q.remaining, feeMicro: q.feeRemaining })),
      new Map([...this.wallets].map(([a, w]) => [a, w.queued])),
    );
    this.feesCollected += plan.feesCollectedMicro;
    for (const pay of plan.payments) {
      const row = pending.find((q) => String(q.id) === pay.id)!;
      row.remaining -= pay.amountMicro;
      row.feeRemaining -= pay.feeMicro;
      if (pay.cleared) row.paidAt = at;
      const w = this.wallets.get(pay.wallet)!;
      w.free += pay.toFreeMicro;
      w.queued -= pay.toFreeMicro;
      let release = pay.pledgeReleasedMicro;
      for (const p of w.open) {
        const take = p.marginQueued < release ? p.marginQueued : release;
        p.marginQueued -= take;
        release -= take;
      }
    }
    this.book(at, 'harvest', null, plan.lines);
    this.pool = plan.pool;
    const stakers = [...this.wallets.values()]
      .filter((w) => w.staked > 0n)
      .map((w) => ({ id: w.address, weight: w.staked }));
    const d = distributeToStakers(this.pool, stakers, { lpCapMicro: lpCap, feesToStakers: true });
    for (const c of d.credits) this.wallets.get(c.wallet)!.stakingRewards += c.amountMicro;
    this.book(at, 'staking_reward', null, d.lines);
    this.pool = d.pool;
    this.sweptToStakers += d.reserveDistributedMicro;
    this.day(at).lp = this.pool.lpMicro;
  }

  snapshot(at: Date, marks: Record<Market, bigint>): void {
    const since = at.getTime() - 7 * 86_400_000;
    for (const w of this.wallets.values()) {
      if (w.open.size === 0 && w.lastActiveAt.getTime() < since) continue;
      let unrealized = 0n;
      for (const p of w.open) {
        unrealized += outcomeAtExit({
          side: p.side,
          marginMicro: p.margin,
          leverage: p.leverage,
          entryPrice: p.entry,
          exitPrice: marks[p.market],
          bust: p.bust,
          config: marketConfig(p.market),
        }).pnlMicro;
      }
      this.snapshots.push({
        wallet: w.address,
        at,
        equity: w.free + w.locked + w.queued + unrealized,
        free: w.free,
        locked: w.locked,
        unrealized,
      });
    }
  }

  day(at: Date): DayStats {
    const key = at.toISOString().slice(0, 10);
    let d = this.days.get(key);
    if (!d) {
      d = {
        volume: 0n,
        pnl: 0n,
        fees: 0n,
        liquidations: 0,
        liquidated: 0n,
        users: new Set(),
        newUsers: 0,
        trades: 0,
        lp: this.pool.lpMicro,
      };
      this.days.set(key, d);
    }
    return d;
  }

  private settling(p: SeedPosition) {
    return {
      wallet: p.wallet,
      side: p.side,
      entryPrice: p.entry,
      marginMicro: p.margin,
      leverage: p.leverage,
      marginQueuedMicro: p.marginQueued,
      bustPrice: p.bust,
    };
  }

  private settle(p: SeedPosition, acc: PositionAccounting, reason: string, exit: bigint, at: Date): void {
    const w = this.wallets.get(p.wallet)!;
    this.book(at, reason, String(p.id), acc.lines);
    this.pool = acc.pool;
    this.apply(w, acc.account);
    w.open.delete(p);
    w.lastActiveAt = at;
    if (acc.queuedPayoutMicro > 0n || acc.feeQueuedMicro > 0n) {
      this.queue.push({
        id: this.queue.length + 1,
        wallet: w.address,
        positionId: p.id,
        original: acc.queuedPayoutMicro,
        remaining: acc.queuedPayoutMicro,
        feeOriginal: acc.feeQueuedMicro,
        feeRemaining: acc.feeQueuedMicro,
        createdAt: at,
        paidAt: null,
      });
    }
    let cancel = acc.queueClaimCancelledMicro;
    for (const q of [...this.queue].reverse()) {
      if (cancel === 0n) break;
      if (q.wallet !== w.address || q.paidAt !== null || q.remaining === 0n) continue;
      const take = q.remaining < cancel ? q.remaining : cancel;
      q.remaining -= take;
      cancel -= take;
      if (q.remaining === 0n && q.feeRemaining === 0n) q.paidAt = at;
    }
    Object.assign(p, {
      exit,
      pnl: acc.pnlMicro,
      fee: acc.feeMicro,
      queued: acc.queuedPayoutMicro,
      minted: acc.rewardMintedMicro,
      marginQueued: 0n,
      closedAt: at,
    });
    this.feesCollected += acc.feeCollectedMicro;
    this.paperMinted += acc.rewardMintedMicro;
    const day = this.day(at);
    day.pnl += acc.pnlMicro;
    day.users.add(w.address);
    day.lp = this.pool.lpMicro;
  }

  private apply(w: WalletState, d: AccountDelta): void {
    w.free += d.freeMicro;
    w.locked += d.lockedMicro;
    w.queued += d.queuedMicro;
    w.realized += d.realizedPnlMicro;
    w.paper += d.paperMicro;
  }

  private book(at: Date, reason: string, ref: string | null, lines: readonly LedgerLine[]): void {
    if (lines.length === 0) return;
    const txId = randomUUID();
    for (const l of lines)
      this.ledger.push({ txId, owner: l.owner, bucket: l.bucket, amount: l.amountMicro, reason, ref, at });
  }
}
