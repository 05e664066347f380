import { isDependencyOutage } from './dependency-outage';

describe('isDependencyOutage', () => {
  it('recognises unreachable and dropped PostgreSQL and Redis connections', () => {
    expect(
      isDependencyOutage(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe(true);
    expect(isDependencyOutage({ message: 'query failed', driverError: { code: '57P01' } })).toBe(true);
    expect(isDependencyOutage(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDependencyOutage(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDependencyOutage(new Error('Command timed out'))).toBe(true);
    expect(isDependencyOutage(new Error('Query runner already released. Cannot run queries anymore.'))).toBe(true);
    expect(isDependencyOutage(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(true);
    expect(
      isDependencyOutage(
        new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], ''),
      ),
    ).toBe(true);
    expect(
      isDependencyOutage(new Error('wrapped', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) })),
    ).toBe(true);
  });

  it('does not take bugs or refused statements for outages', () => {
    expect(isDependencyOutage(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isDependencyOutage(new TypeError('undefined is not a function'))).toBe(false);
    expect(isDependencyOutage(null)).toBe(false);
  });
});
