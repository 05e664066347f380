import { WeightBudget } from './weight-budget';

describe('WeightBudget', () => {
  it('keeps one budget per IP and refuses past it with the wait until it refills', () => {
    let now = 0;
    const budget = new WeightBudget(120, () => now);
    for (let i = 0; i < 6; i += 1) expect(budget.charge('1.1.1.1', 20)).toEqual({ ok: true });
    expect(budget.charge('1.1.1.1', 2)).toEqual({ ok: false, retryAfterMs: 1000 });
    expect(budget.charge('2.2.2.2', 20)).toEqual({ ok: true });
    now = 1000;
    expect(budget.charge('1.1.1.1', 2)).toEqual({ ok: true });
  });

  it('lets answers overdraw with their extra weight and resets', () => {
    const budget = new WeightBudget(60, () => 0);
    budget.chargeExtra('ip', 83);
    expect(budget.remaining('ip')).toBe(-23);
    expect(budget.charge('ip', 2)).toEqual({ ok: false, retryAfterMs: 25_000 });
    expect(budget.charge('ip', 100)).toEqual({ ok: false, retryAfterMs: 60_000 });
    budget.reset();
    expect(budget.remaining('ip')).toBe(60);
  });
});
