import { queryAffected, queryRow, queryRows, type QueryExecutor } from './query-rows';

const answering = (out: unknown): QueryExecutor => ({ query: async () => out });

describe('query rows of every executor shape', () => {
  it('reads plain row arrays (TypeORM reads and inserts)', async () => {
    await expect(queryRows(answering([{ a: 1 }, { a: 2 }]), 'SELECT')).resolves.toEqual([{ a: 1 }, { a: 2 }]);
    await expect(queryAffected(answering([{ a: 1 }]), 'INSERT')).resolves.toBe(1);
    await expect(queryRow(answering([]), 'SELECT')).resolves.toBeUndefined();
  });

  it('reads TypeORM update and delete answers ([rows, affected])', async () => {
    await expect(queryRows(answering([[{ id: 'x' }], 3]), 'UPDATE')).resolves.toEqual([{ id: 'x' }]);
    await expect(queryAffected(answering([[], 3]), 'DELETE')).resolves.toBe(3);
  });

  it('reads pg results ({ rows, rowCount })', async () => {
    await expect(queryRow(answering({ rows: [{ n: '7' }], rowCount: 1 }), 'SELECT')).resolves.toEqual({ n: '7' });
    await expect(queryAffected(answering({ rows: [], rowCount: 5 }), 'UPDATE')).resolves.toBe(5);
  });
});
