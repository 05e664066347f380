import fc from 'fast-check';
import {
  PayoutState,
  QueueEntry,
  harvestPayoutQueue,
  payQueueHeadFirst,
  queuedTotal,
  settleLossIntoLp,
  settleWinPayout,
} from './payout-queue';

const empty: PayoutState = { lpMicro: 0n, parkedMicro: 0n, queue: [] };

describe('payout queue: examples', () => {
  it('pays a win from the LP and queues what the LP cannot pay', () => {
    const r = settleWinPayout({ ...empty, lpMicro: 70n }, 'a', 100n);
    expect(r.paidMicro).toBe(70n);
    expect(r.queuedMicro).toBe(30n);
    expect(r.state).toEqual({ lpMicro: 0n, parkedMicro: 0n, queue: [{ id: 'a', amountMicro: 30n }] });
  });

  it('queues a new win whole while the queue is not empty (no jumping the queue)', () => {
    const r = settleWinPayout({ lpMicro: 50n, parkedMicro: 0n, queue: [{ id: 'a', amountMicro: 10n }] }, 'b', 20n);
    expect(r.paidMicro).toBe(0n);
    expect(r.state.queue).toEqual([
      { id: 'a', amountMicro: 10n },
      { id: 'b', amountMicro: 20n },
    ]);
    expect(r.state.lpMicro).toBe(50n);
  });

  it('parks losses while the queue is not empty, credits the LP otherwise', () => {
    expect(settleLossIntoLp({ ...empty, lpMicro: 5n }, 10n)).toEqual({
      state: { ...empty, lpMicro: 15n },
      parked: false,
    });
    const queued: PayoutState = { lpMicro: 0n, parkedMicro: 3n, queue: [{ id: 'a', amountMicro: 10n }] };
    expect(settleLossIntoLp(queued, 10n)).toEqual({ state: { ...queued, parkedMicro: 13n }, parked: true });
  });

  it('harvests head first, paying the last reached entry partly', () => {
    const state: PayoutState = {
      lpMicro: 0n,
      parkedMicro: 45n,
      queue: [
        { id: 'a', amountMicro: 10n },
        { id: 'b', amountMicro: 30n },
        { id: 'c', amountMicro: 20n },
      ],
    };
    const r = harvestPayoutQueue(state);
    expect(r.payments).toEqual([
      { id: 'a', amountMicro: 10n, cleared: true },
      { id: 'b', amountMicro: 30n, cleared: true },
      { id: 'c', amountMicro: 5n, cleared: false },
    ]);
    expect(r.state).toEqual({ lpMicro: 0n, parkedMicro: 0n, queue: [{ id: 'c', amountMicro: 15n }] });
  });

  it('payQueueHeadFirst stops paying when funds run out and refuses negative funds', () => {
    const queue = [
      { id: 'a', amountMicro: 5n },
      { id: 'b', amountMicro: 5n },
    ];
    expect(payQueueHeadFirst(5n, queue)).toEqual({
      payments: [{ id: 'a', amountMicro: 5n, cleared: true }],
      remaining: [{ id: 'b', amountMicro: 5n }],
      paidMicro: 5n,
      fundsAfterMicro: 0n,
    });
    expect(() => payQueueHeadFirst(-1n, queue)).toThrow(RangeError);
  });

  it('leaves what remains in the LP once the queue is empty', () => {
    const r = harvestPayoutQueue({ lpMicro: 0n, parkedMicro: 100n, queue: [{ id: 'a', amountMicro: 40n }] });
    expect(r.state).toEqual({ lpMicro: 60n, parkedMicro: 0n, queue: [] });
    expect(r.paidMicro).toBe(40n);
  });
});

const entriesArb = fc
  .array(fc.bigInt({ min: 1n, max: 10n ** 12n }), { maxLength: 20 })
  .map((amounts): QueueEntry[] => amounts.map((amountMicro, i) => ({ id: `q${i}`, amountMicro })));

describe('payout queue: properties', () => {
  it('harvest is FIFO and conserves money', () => {
    fc.assert(
      fc.property(
        entriesArb,
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        (queue, lpMicro, parkedMicro) => {
          const r = harvestPayoutQueue({ lpMicro, parkedMicro, queue });
          // conservation: funds in = paid + LP after; owed = paid + still queued
          expect(r.paidMicro + r.state.lpMicro).toBe(lpMicro + parkedMicro);
          expect(r.paidMicro + queuedTotal(r.state.queue)).toBe(queuedTotal(queue));
          expect(r.payments.reduce((s, p) => s + p.amountMicro, 0n)).toBe(r.paidMicro);
          // FIFO: payments follow queue order; every paid entry but the last is cleared; the rest keep order
          r.payments.forEach((p, i) => {
            expect(p.id).toBe(queue[i].id);
            if (i < r.payments.length - 1) expect(p.cleared).toBe(true);
          });
          const clearedCount = r.payments.filter((p) => p.cleared).length;
          expect(r.state.queue.map((e) => e.id)).toEqual(queue.slice(clearedCount).map((e) => e.id));
          // the LP keeps funds only when nobody is left waiting
          if (r.state.queue.length > 0) expect(r.state.lpMicro).toBe(0n);
        },
      ),
    );
  });

  it('a win is paid plus queued to exactly the amount owed', () => {
    fc.assert(
      fc.property(
        entriesArb,
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        (queue, lpMicro, payout) => {
          const r = settleWinPayout({ lpMicro, parkedMicro: 0n, queue }, 'new', payout);
          expect(r.paidMicro + r.queuedMicro).toBe(payout);
          expect(r.state.lpMicro + r.paidMicro).toBe(lpMicro);
          expect(queuedTotal(r.state.queue)).toBe(queuedTotal(queue) + r.queuedMicro);
          if (r.queuedMicro > 0n)
            expect(r.state.queue[r.state.queue.length - 1]).toEqual({ id: 'new', amountMicro: r.queuedMicro });
        },
      ),
    );
  });
});
