import { eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { type Executor, preparedPerConnection } from './client.ts';
import { sites } from './schema/sites.ts';

describe(`prepared statements per connection on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('builds a statement once per connection and runs it inside each transaction', async () => {
    const db = t.database.db;
    const built: Executor[] = [];
    const siteDomain = preparedPerConnection((executor) => {
      built.push(executor);
      return executor
        .select({ domain: sites.domain })
        .from(sites)
        .where(eq(sites.id, sql.placeholder('id')))
        .prepare('test_site_domain');
    });
    const [first] = await db.select({ id: sites.id, domain: sites.domain }).from(sites).limit(1);
    // Sequential transactions: on PostgreSQL the pool hands out its idle connection again.
    for (let i = 0; i < 3; i++) {
      await db
        .transaction(async (tx) => {
          // The transaction's own writes are visible: the statement runs on its connection.
          await tx
            .update(sites)
            .set({ domain: `changed-${i}.test` })
            .where(eq(sites.id, first!.id));
          expect(await siteDomain(tx).execute({ id: first!.id })).toEqual([{ domain: `changed-${i}.test` }]);
          tx.rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof TransactionRollbackError)) throw error;
        });
    }
    expect(await siteDomain(db).execute({ id: first!.id })).toEqual([{ domain: first!.domain }]);
    const transactionsBuilt = built.length - 1;
    if (process.env.DATABASE_URL) {
      // One pooled connection served the three transactions: built once for them, once for the pool.
      expect(transactionsBuilt).toBe(1);
    } else {
      // The embedded database has no pool: every transaction is a connection of its own.
      expect(transactionsBuilt).toBe(3);
    }
    expect(siteDomain(db)).toBe(siteDomain(db));
  });

  if (process.env.DATABASE_URL) {
    it('keeps an idle pooled connection open, its prepared statements with it', async () => {
      const backend = async () => {
        const [row] = await t.database.db.select({ pid: sql<number>`pg_backend_pid()` }).from(sites).limit(1);
        return row?.pid;
      };
      const before = await backend();
      // The pool's idle timer starts when a query gives its connection back: fake from here on.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        expect(await backend()).toBe(before);
        vi.advanceTimersByTime(10 * 60_000);
      } finally {
        vi.useRealTimers();
      }
      // pg-pool's default closed it after 10 s idle; the next request paid for a new backend.
      expect(await backend()).toBe(before);
    });
  }
});
