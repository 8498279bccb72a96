import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { refreshRestoredDemo, seedDemo } from '#server/modules/demo/demo.seed.ts';
import { type DatabaseHandle, openPglite } from './client.ts';
import { bundlePrices, gifts } from './schema/catalog.ts';
import { profiles, users } from './schema/members.ts';
import { sites } from './schema/sites.ts';
import { extractSnapshot, isInitialised, projectRoot, snapshotKey, snapshotSources } from './snapshot.ts';

const work = mkdtempSync(path.join(os.tmpdir(), 'snapshot-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// The key's sources as they are now: other work on the tree must not change the key mid-test.
const frozenRoot = path.join(work, 'frozen');
for (const source of snapshotSources) {
  cpSync(path.join(projectRoot, source), path.join(frozenRoot, source), { recursive: true });
}
let folders = 0;
const freshDataDir = () => path.join(work, `data-${++folders}`, 'db');

const today = new Date('2026-03-02T10:00:00Z');
const demoProfiles = 12;

/** What a start does with the embedded database: open, migrate, seed, keep a snapshot when none fit. */
async function start(snapshotDir: string, profiles: number, at = today): Promise<DatabaseHandle> {
  const handle = await openPglite(freshDataDir(), {
    dir: snapshotDir,
    demoProfiles: profiles,
    root: frozenRoot,
  });
  await handle.migrate();
  if (handle.snapshot?.kind === 'restored')
    await refreshRestoredDemo(handle.db, handle.snapshot.seededAt, at);
  await seedDemo(handle.db, { profiles, today: at });
  if (handle.snapshot?.kind === 'missing') await handle.snapshot.save(at);
  return handle;
}

async function schemaOf(handle: DatabaseHandle): Promise<unknown[]> {
  const columns = await handle.db.execute(sql`
    select table_name, column_name, data_type, is_nullable, column_default
    from information_schema.columns where table_schema in ('public', 'drizzle')
    order by table_name, column_name`);
  const indexes = await handle.db.execute(sql`
    select tablename, indexname, indexdef from pg_indexes where schemaname = 'public'
    order by tablename, indexname`);
  const migrations = await handle.db.execute(
    sql`select hash, created_at from drizzle.__drizzle_migrations order by id`,
  );
  return [columns, indexes, migrations];
}

async function demoRowsOf(handle: DatabaseHandle): Promise<unknown[]> {
  return [
    await handle.db.select().from(sites).orderBy(asc(sites.id)),
    await handle.db.select().from(users).orderBy(asc(users.id)),
    await handle.db.select().from(profiles).orderBy(asc(profiles.id)),
    await handle.db
      .select()
      .from(bundlePrices)
      .orderBy(asc(bundlePrices.bundleId), asc(bundlePrices.country)),
    await handle.db.select().from(gifts).orderBy(asc(gifts.id)),
  ];
}

describe('the embedded database snapshot', () => {
  it('has a key that changes with every migration, schema or demo source and with the seed size', () => {
    const root = path.join(work, 'project');
    mkdirSync(path.join(root, 'server/db/migrations/meta'), { recursive: true });
    mkdirSync(path.join(root, 'server/modules/demo'), { recursive: true });
    writeFileSync(path.join(root, 'server/db/migrations/0000_a.sql'), 'create table a ();');
    writeFileSync(path.join(root, 'server/db/migrations/meta/_journal.json'), '{}');
    writeFileSync(path.join(root, 'server/modules/demo/demo.seed.ts'), 'export const names = ["Ana"];');
    const key = (changes: { demoProfiles?: number | null; pgliteVersion?: string } = {}) =>
      snapshotKey({ demoProfiles: 320, pgliteVersion: '1.0.0', root, ...changes });

    const first = key();
    expect(key()).toBe(first);
    expect(key({ demoProfiles: 321 })).not.toBe(first);
    expect(key({ demoProfiles: null })).not.toBe(first);
    expect(key({ pgliteVersion: '1.0.1' })).not.toBe(first);

    writeFileSync(path.join(root, 'server/modules/demo/demo.seed.ts'), 'export const names = ["Ana", "Bo"];');
    const afterDemoChange = key();
    expect(afterDemoChange).not.toBe(first);
    writeFileSync(path.join(root, 'server/db/migrations/0001_b.sql'), 'create table b ();');
    expect(key()).not.toBe(afterDemoChange);
    // A test file next to the seed is not part of what the database holds.
    const beforeTest = key();
    writeFileSync(path.join(root, 'server/modules/demo/demo.seed.test.ts'), 'it("x", () => {});');
    expect(key()).toBe(beforeTest);
  });

  it('restores the same schema and demo rows as migrating and seeding, and is rebuilt when its key changes', async () => {
    const snapshotDir = path.join(work, 'snapshots');

    const migrated = await start(snapshotDir, demoProfiles);
    expect(migrated.snapshot?.kind).toBe('missing');
    const files = readdirSync(snapshotDir);
    expect(files.filter((name) => name.endsWith('.tar'))).toHaveLength(1);

    const restored = await start(snapshotDir, demoProfiles);
    expect(restored.snapshot).toEqual({ kind: 'restored', seededAt: today });
    expect(await schemaOf(restored)).toEqual(await schemaOf(migrated));
    expect(await demoRowsOf(restored)).toEqual(await demoRowsOf(migrated));
    await restored.close();
    await migrated.close();

    // Another key (here: another seed size) never meets the old snapshot: it is made anew and the old one goes.
    const resized = await start(snapshotDir, demoProfiles + 1);
    expect(resized.snapshot?.kind).toBe('missing');
    const [count] = await resized.db.select({ value: sql<number>`count(*)::int` }).from(profiles);
    expect(count?.value).toBe(demoProfiles + 1);
    await resized.close();
    const after = readdirSync(snapshotDir).filter((name) => name.endsWith('.tar'));
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(files.filter((name) => name.endsWith('.tar')));
    for (const name of files) expect(existsSync(path.join(snapshotDir, name))).toBe(false);
  }, 180_000);

  it('moves a restored demo to the day it starts on', async () => {
    const snapshotDir = path.join(work, 'snapshots-dates');
    const seeded = await start(snapshotDir, demoProfiles);
    const before = await seeded.db.select().from(profiles).orderBy(asc(profiles.id));
    await seeded.close();

    const later = new Date(today.getTime() + 3 * 86_400_000);
    const restored = await start(snapshotDir, demoProfiles, later);
    expect(restored.snapshot?.kind).toBe('restored');
    const after = await restored.db.select().from(profiles).orderBy(asc(profiles.id));
    await restored.close();
    expect(after).toHaveLength(before.length);
    for (const [index, profile] of after.entries()) {
      const old = before[index]!;
      expect(profile.lastActiveAt.getTime() - old.lastActiveAt.getTime()).toBe(3 * 86_400_000);
      expect(Date.parse(profile.birthdate) - Date.parse(old.birthdate)).toBe(3 * 86_400_000);
    }
  }, 180_000);
});

/** A tar as PGlite's dumpDataDir writes it: ustar headers, folders ('5') and files ('0'). */
function tarOf(entries: { name: string; body?: string }[], cutAt?: number): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const header = Buffer.alloc(512);
    header.write(entry.name, 0, 100);
    const body = Buffer.from(entry.body ?? '');
    header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write(entry.body === undefined ? '5' : '0', 156);
    header.write('ustar\0', 257);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  const archive = Buffer.concat(blocks);
  return cutAt === undefined ? archive : archive.subarray(0, cutAt);
}

describe('extracting a snapshot into a fresh data folder', () => {
  it('writes its folders and files, PG_VERSION last, and leaves out the old lock file', () => {
    const dir = path.join(work, 'extract-whole');
    extractSnapshot(
      tarOf([
        { name: '/PG_VERSION', body: '17\n' },
        { name: '/base' },
        { name: '/base/1' },
        { name: '/base/1/112', body: 'x'.repeat(700) },
        { name: '/postmaster.pid', body: '42' },
        { name: '/../outside', body: 'stays in' },
      ]),
      dir,
    );
    expect(readFileSync(path.join(dir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(readFileSync(path.join(dir, 'base/1/112'), 'utf8')).toBe('x'.repeat(700));
    expect(existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);
    // A name that climbs out of the folder lands inside it.
    expect(readFileSync(path.join(dir, 'outside'), 'utf8')).toBe('stays in');
    expect(existsSync(path.join(work, 'outside'))).toBe(false);
    expect(isInitialised(dir)).toBe(true);
  });

  it('never leaves a cut-short extraction looking like a database', () => {
    const dir = path.join(work, 'extract-cut');
    const whole = [
      { name: '/PG_VERSION', body: '17\n' },
      { name: '/base' },
      { name: '/base/1/112', body: 'y'.repeat(2000) },
    ];
    expect(() => extractSnapshot(tarOf(whole, 512 * 3 + 1000), dir)).toThrow(/damaged/);
    expect(isInitialised(dir)).toBe(false);
  });
});
