import { count, eq } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { connectPostgres, type DatabaseHandle, wrapPglite } from '#server/db/client.ts';
import { createPglite } from '#server/db/pglite.ts';
import { bundlePrices, bundles, gifts } from '#server/db/schema/catalog.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { sites } from '#server/db/schema/sites.ts';
import { databaseUrlFor, testPooler } from '../../../tests/setup/test-database.ts';
import { seedDemo } from './demo.seed.ts';

/**
 * Two instances starting at once on one empty database: each migrates and seeds. On PostgreSQL each
 * instance has its own connection pool on a database made for this test; PGlite has one connection
 * and runs the same calls one after the other.
 */
async function twoInstancesOnAnEmptyDatabase(): Promise<{
  handles: DatabaseHandle[];
  drop(): Promise<void>;
}> {
  const info = inject('testDatabase');
  if (info.kind === 'pglite') {
    const handle = wrapPglite(await createPglite());
    return { handles: [handle, handle], drop: () => handle.close() };
  }
  // The run's prefix: the global teardown drops it even if this test dies half-way.
  const name = `${info.prefix}_seed_${process.pid}`;
  const admin = new pg.Client({ connectionString: info.adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = databaseUrlFor(info.appUrl, name);
  const handles = await Promise.all([
    connectPostgres(url, 3, testPooler),
    connectPostgres(url, 3, testPooler),
  ]);
  return {
    handles,
    async drop() {
      await Promise.all(handles.map((handle) => handle.close()));
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

describe(`demo data on an empty ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'} database`, () => {
  it('is seeded once when two instances start at the same moment', async () => {
    const { handles, drop } = await twoInstancesOnAnEmptyDatabase();
    try {
      // PGlite's single handle migrates once; PostgreSQL's migrations take an advisory lock.
      await Promise.all([...new Set(handles)].map((handle) => handle.migrate()));
      const results = await Promise.all(handles.map((handle) => seedDemo(handle.db, { profiles: 40 })));
      expect(results.map((result) => result.createdProfiles).sort((a, b) => a - b)).toEqual([0, 40]);

      const db = handles[0]!.db;
      const total = async (table: typeof bundles | typeof bundlePrices | typeof gifts | typeof sites) =>
        (await db.select({ value: count() }).from(table))[0]!.value;
      expect(
        (await db.select({ value: count() }).from(profiles).where(eq(profiles.fictional, true)))[0]!.value,
      ).toBe(40);
      expect((await db.select({ value: count() }).from(users))[0]!.value).toBe(40);
      expect(await total(sites)).toBe(2);
      expect(await total(bundles)).toBe(4);
      expect(await total(bundlePrices)).toBe(20);
      expect(await total(gifts)).toBe(8);
    } finally {
      await drop();
    }
  });
});
