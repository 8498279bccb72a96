import { fillPlaceholders, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sites } from '#server/db/schema/sites.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { profilesNextTo } from '../../../tests/setup/search-profiles.ts';
import { injectCounted, installStatementCounter } from '../../../tests/setup/statement-count.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import {
  decodeSearchCursor,
  encodeSearchCursor,
  searchPageQuery,
  searchPageValues,
} from './search.repository.ts';

let t: TestApp;
beforeAll(async () => {
  installStatementCounter();
  t = await createTestApp();
  await t.app.ready();
});
afterAll(() => t.close());

/** Profiles of the viewer's country, many of them active at the very same moment (ties broken by id). */
async function seed(viewer: { userId: number; profileId: number }, count: number) {
  const moment = new Date(Date.now() + 60_000);
  await profilesNextTo(t.database.db, viewer, count, 'keyset', (index) => ({
    gender: 'female',
    lastActiveAt: index % 3 === 0 ? moment : new Date(moment.getTime() - index * 1000),
  }));
}

describe('search pages by cursor (keyset)', () => {
  it('walks the same profiles as the numbered pages, in the same statements, and refuses a forged cursor', async () => {
    const viewer = await activeMember(t.app);
    await seed(viewer, 80);
    const headers = { cookie: viewer.cookie };
    const base = '/api/search.php?gender=female&country=any';
    const numbered: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const body = (await t.app.inject({ url: `${base}&page=${page}`, headers })).json();
      numbered.push(...body.profiles.map((profile: { id: number }) => profile.id));
    }
    const keyset: number[] = [];
    let cursor: string | null | undefined;
    const statements: number[] = [];
    for (let page = 1; page <= 4 && cursor !== null; page++) {
      const { response, statements: ran } = await injectCounted(t.app, {
        url: cursor ? `${base}&cursor=${cursor}` : base,
        headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      keyset.push(...body.profiles.map((profile: { id: number }) => profile.id));
      cursor = body.next_cursor;
      // A cursor while full pages come, none after the last.
      expect(cursor === null, `page ${page}: ${body.profiles.length} of ${body.total}`).toBe(
        body.profiles.length < 24,
      );
      statements.push(ran.length);
    }
    expect(keyset).toEqual(numbered);
    expect(new Set(keyset).size).toBe(keyset.length);
    // Within the search budget (2) on every page, the first and the later ones alike.
    expect(Math.max(...statements)).toBeLessThanOrEqual(2);
    expect(new Set(statements).size).toBe(1);

    const forged = await t.app.inject({ url: `${base}&cursor=bm90LWEtY3Vyc29y`, headers });
    expect(forged.statusCode).toBe(422);
    expect(forged.json().error).toBeDefined();
    expect(decodeSearchCursor(encodeSearchCursor({ lastActiveAt: new Date(5), id: 7 }))).toEqual({
      lastActiveAt: new Date(5),
      id: 7,
    });
  });
});

if (process.env.DATABASE_URL) {
  describe('search plans on PostgreSQL', () => {
    it('reads the default and a country + age + gender search from indexes, with no scan of all profiles', async () => {
      const db = t.database.db;
      const [site] = await db.select().from(sites).limit(1);
      const countries = site!.countries;
      // Enough profiles that a sequential scan would be the planner's choice without the indexes.
      await db.execute(sql`
        with made as (
          insert into users (site_id, email, password_hash, status)
          select ${site!.id}, 'plan.' || g || '@example.com', 'x', 'active' from generate_series(1, 30000) g
          returning id
        )
        insert into profiles (user_id, name, birthdate, country, gender, status, last_active_at)
        select id, 'Plan', date '1960-01-01' + (id % 15000),
          (${`{${countries.join(',')}}`}::text[])[1 + id % ${countries.length}],
          (array['male', 'female'])[1 + id % 2], 'active', now() - (id % 20000) * interval '1 minute'
        from made`);
      await db.execute(sql`analyze users`);
      await db.execute(sql`analyze profiles`);
      const client = new pg.Client({ connectionString: t.databaseUrl });
      await client.connect();
      try {
        const plan = async (filter: Parameters<typeof searchPageQuery>[1]) => {
          const query = searchPageQuery(db, filter, {}).toSQL();
          const params = fillPlaceholders(query.params, searchPageValues(filter, { limit: 24, offset: 0 }));
          const result = await client.query(`explain ${query.sql}`, params);
          return result.rows.map((row: Record<string, string>) => Object.values(row)[0]).join('\n');
        };
        const defaultPlan = await plan({ countries });
        const filtered = await plan({
          countries,
          country: countries[0],
          gender: 'female',
          bornOnOrBefore: '2000-01-01',
          bornAfter: '1970-01-01',
        });
        if (process.env.SEARCH_PLAN_DUMP) console.info(`${defaultPlan}\n\n${filtered}`);
        for (const text of [defaultPlan, filtered]) {
          expect(text, text).toMatch(
            /Index (Only )?Scan.* on profiles\b|Index (Only )?Scan using profiles_\w+ on profiles/,
          );
          expect(text, text).not.toMatch(/Seq Scan on profiles\b/);
        }
        expect(defaultPlan).toMatch(/profiles_active_recent_idx|profiles_country_gender_recent_idx/);
        expect(filtered).toMatch(/profiles_country_gender_recent_idx|profiles_search_idx/);
      } finally {
        await client.end();
      }
    });
  });
}
