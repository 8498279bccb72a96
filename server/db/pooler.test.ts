import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { connectPostgres, type PoolerMode } from './client.ts';
import { sites } from './schema/sites.ts';

const rowsOf = <T>(row: z.ZodType<T>, result: unknown): T[] =>
  z.object({ rows: z.array(row) }).parse(result).rows;

/**
 * DATABASE_POOLER=transaction (decision 048): behind PgBouncer in transaction mode nothing may outlive
 * a transaction on its server connection. Checked on a direct connection of one, where the statement
 * and the look at the server's state meet on the same backend, so it holds on both kinds of run.
 */
describe(`behind a transaction pooler, on ${process.env.DATABASE_POOLER ?? 'direct'} PostgreSQL`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  if (!process.env.DATABASE_URL) {
    it('has nothing to check on the embedded database: it has no pooler and one connection', () => {
      expect(t.databaseDirectUrl).toBeUndefined();
    });
    return;
  }

  it('sends prepared statements unnamed: none is left on the server connection', async () => {
    const left = async (pooler: PoolerMode) => {
      const handle = await connectPostgres(t.databaseDirectUrl!, 1, { pooler });
      try {
        const statement = handle.db
          .select({ domain: sites.domain })
          .from(sites)
          .where(eq(sites.id, sql.placeholder('id')))
          .prepare('pooler_test_site');
        const [site] = await handle.db.select({ id: sites.id }).from(sites).limit(1);
        expect(await statement.execute({ id: site!.id })).toHaveLength(1);
        expect(await statement.execute({ id: site!.id })).toHaveLength(1);
        const result = await handle.db.execute(sql`select name from pg_prepared_statements`);
        return rowsOf(z.object({ name: z.string() }), result).map((row) => row.name);
      } finally {
        await handle.close();
      }
    };
    // Straight to PostgreSQL the statement is prepared once on its connection (decision 027) …
    expect(await left('none')).toEqual(['pooler_test_site']);
    // … behind a transaction pooler it is parsed with each run and nothing stays behind.
    expect(await left('transaction')).toEqual([]);
  });

  it('migrates under a lock that ends with its transaction, none held after', async () => {
    const handle = await connectPostgres(t.databaseUrl!, 2, {
      pooler: process.env.DATABASE_POOLER === 'transaction' ? 'transaction' : 'none',
    });
    const watcher = await connectPostgres(t.databaseDirectUrl!, 1);
    try {
      await Promise.all([handle.migrate(), handle.migrate()]);
      const result = await watcher.db.execute(
        sql`select count(*)::int as count from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
      );
      const rows = rowsOf(z.object({ count: z.number() }), result);
      // A session lock taken through a transaction pooler stays on whichever server connection
      // took it when the unlock runs on another; a transaction lock cannot.
      expect(rows[0]!.count).toBe(0);
    } finally {
      await handle.close();
      await watcher.close();
    }
  });
});
