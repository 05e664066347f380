import { FailurePlan } from './failure-plan';

describe('FailurePlan', () => {
  it('fails nothing by default', () => {
    expect(new FailurePlan().next()).toBeUndefined();
  });

  it('fails every request until reset when no count is given', () => {
    const plan = new FailurePlan();
    plan.set('error', 503);
    for (let i = 0; i < 5; i += 1) expect(plan.next()).toEqual({ mode: 'error', status: 503 });
    plan.set('none');
    expect(plan.next()).toBeUndefined();
  });

  it('fails only the next `count` requests', () => {
    const plan = new FailurePlan();
    plan.set('timeout', 500, 2);
    expect(plan.state()).toEqual({ mode: 'timeout', remaining: 2 });
    expect(plan.next()).toEqual({ mode: 'timeout' });
    expect(plan.next()).toEqual({ mode: 'timeout' });
    expect(plan.next()).toBeUndefined();
    expect(plan.state()).toEqual({ mode: 'none', remaining: null });
  });
});
