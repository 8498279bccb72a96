import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '#server/modules/demo/demo.seed.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { profiles, users } from './schema/members.ts';
import { sites } from './schema/sites.ts';

describe(`migrations and demo data on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('applies every migration, and applying again changes nothing', async () => {
    await t.database.migrate();
    const result = (await t.database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    )) as unknown as { rows: { table_name: string }[] };
    const tables = result.rows.map((row) => row.table_name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'app_secrets',
        'bundle_prices',
        'bundles',
        'companies',
        'gifts',
        'photos',
        'profiles',
        'sites',
        'users',
      ]),
    );
  });

  it('opens transactions without relational query builders (the app never uses db.query)', async () => {
    // With a schema, Drizzle built one builder per table for every transaction (~12 KB).
    const builders = await t.database.db.transaction(async (tx) => Object.keys(tx.query).length);
    expect(builders).toBe(0);
    expect(Object.keys(t.database.db.query)).toEqual([]);
  });

  it('seeds two sites and fictional members across countries, genders and ages 18 to 75', async () => {
    const db = t.database.db;
    expect((await db.select().from(sites)).map((site) => site.domain).sort()).toEqual([
      'localhost',
      'nl.localhost',
    ]);
    const rows = await db.select().from(profiles);
    expect(rows.length).toBeGreaterThanOrEqual(60);
    expect(rows.every((row) => row.fictional)).toBe(true);
    expect(new Set(rows.map((row) => row.country))).toEqual(new Set(['NL', 'BE', 'DE', 'GB', 'US']));
    expect(new Set(rows.map((row) => row.gender))).toEqual(new Set(['male', 'female']));
    expect(rows.every((row) => row.countryregion)).toBe(true);
    const ages = rows.map((row) => new Date().getUTCFullYear() - Number(row.birthdate.slice(0, 4)));
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(18);
    expect(Math.max(...ages)).toBeLessThanOrEqual(76);
  });

  it('seeds idempotently: a second run adds nothing twice', async () => {
    const db = t.database.db;
    const before = await db.select({ value: count() }).from(profiles);
    const result = await seedDemo(db, { profiles: before[0]!.value });
    expect(result.createdProfiles).toBe(0);
    expect(await db.select({ value: count() }).from(profiles)).toEqual(before);
    expect((await db.select().from(sites)).length).toBe(2);
  });

  it('refuses a negative credit balance at the database level', async () => {
    const [user] = await t.database.db.select().from(users).limit(1);
    await expect(
      t.database.db.update(users).set({ credits: -1 }).where(eq(users.id, user!.id)),
    ).rejects.toThrow();
  });
});
