import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, wrapPglite } from './client.ts';
import { createPglite } from './pglite.ts';
import { PgliteThread } from './pglite-thread.ts';

const notes = pgTable('thread_notes', {
  id: integer().primaryKey(),
  body: text().notNull().unique('thread_notes_body_key'),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
});
const createNotes = sql`create table thread_notes (
  id integer primary key, body text not null constraint thread_notes_body_key unique,
  created_at timestamptz not null)`;

/** The rows of a raw query (the app's database type leaves the driver's answer unknown). */
function rowsOf(result: unknown): unknown[] {
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows)) {
    throw new Error('no rows in the answer');
  }
  return result.rows;
}

/** The unique violation Drizzle reports, found as the services look for it (code and constraint). */
function violationOf(error: unknown): { code?: unknown; constraint?: unknown } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const found = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (found.code !== undefined) return found;
    current = found.cause;
  }
  return undefined;
}

describe('the embedded database in a worker thread', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'pglite-thread-test-'));
  let thread: PgliteThread;
  let threaded: DatabaseHandle;
  let inProcess: DatabaseHandle;
  beforeAll(async () => {
    thread = PgliteThread.start(path.join(work, 'db'));
    await thread.ready;
    threaded = wrapPglite(thread);
    inProcess = wrapPglite(await createPglite());
    for (const handle of [threaded, inProcess]) await handle.db.execute(createNotes);
  });
  afterAll(async () => {
    await Promise.all([thread.close(), inProcess.close()]);
    rmSync(work, { recursive: true, force: true });
  });

  it('answers Drizzle exactly as PGlite in this thread does', async () => {
    const at = new Date('2026-11-27T10:15:30.123Z');
    const run = async ({ db }: DatabaseHandle) => {
      const inserted = await db
        .insert(notes)
        .values([
          { id: 1, body: 'first', createdAt: at },
          { id: 2, body: 'second', createdAt: at },
        ])
        .returning();
      const updated = await db.update(notes).set({ body: 'changed' }).where(eq(notes.id, 2)).returning();
      const selected = await db.select().from(notes).orderBy(notes.id);
      const raw = await db.execute(sql`select id, created_at, ${'text'}::text as param, '{1,2}'::int[] as list
        from thread_notes where id = ${1}`);
      return { inserted, updated, selected, raw: rowsOf(raw) };
    };
    const [fromThread, fromProcess] = [await run(threaded), await run(inProcess)];
    expect(fromThread).toEqual(fromProcess);
    expect(fromThread.selected[0]?.createdAt).toEqual(at);
    expect(fromThread.raw).toEqual([{ id: 1, created_at: expect.any(String), param: 'text', list: [1, 2] }]);
  });

  it('commits a transaction that resolves and rolls back one that throws, savepoints included', async () => {
    const at = new Date();
    await threaded.db.transaction(async (tx) => {
      await tx.insert(notes).values({ id: 10, body: 'kept', createdAt: at });
      await tx
        .transaction(async (inner) => {
          await inner.insert(notes).values({ id: 11, body: 'dropped with its savepoint', createdAt: at });
          throw new Error('inner');
        })
        .catch(() => undefined);
    });
    const failure = new Error('the callback failed');
    await expect(
      threaded.db.transaction(async (tx) => {
        await tx.insert(notes).values({ id: 12, body: 'rolled back', createdAt: at });
        throw failure;
      }),
    ).rejects.toBe(failure);
    const ids = await threaded.db.select({ id: notes.id }).from(notes).where(sql`${notes.id} >= 10`);
    expect(ids).toEqual([{ id: 10 }]);
  });

  it('reports a database error with its SQLSTATE and constraint', async () => {
    const duplicate = threaded.db.insert(notes).values({ id: 20, body: 'first', createdAt: new Date() });
    const error = await duplicate.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(violationOf(error)).toMatchObject({ code: '23505', constraint: 'thread_notes_body_key' });
    // The thread goes on answering after an error, inside a transaction too.
    await expect(
      threaded.db.transaction(async (tx) => {
        await tx.execute(sql`select 1 / 0`);
      }),
    ).rejects.toMatchObject({ cause: { code: '22012' } });
    expect(rowsOf(await threaded.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
  });

  it('runs queries sent at once, in and out of a transaction, without mixing them up', async () => {
    const outside = Promise.all(
      Array.from({ length: 20 }, (_, i) => threaded.db.execute(sql`select ${i}::int as value`)),
    );
    const inside = threaded.db.transaction(async (tx) =>
      Promise.all(Array.from({ length: 20 }, (_, i) => tx.execute(sql`select ${i * 2}::int as value`))),
    );
    const [plain, transacted] = await Promise.all([outside, inside]);
    expect(plain.map((result) => rowsOf(result)[0])).toEqual(
      Array.from({ length: 20 }, (_, i) => ({ value: i })),
    );
    expect(transacted.map((result) => rowsOf(result)[0])).toEqual(
      Array.from({ length: 20 }, (_, i) => ({ value: i * 2 })),
    );
  });

  it('hands over the data folder as a tarball (the start snapshot)', async () => {
    const tar = Buffer.from(await (await thread.dumpDataDir('none')).arrayBuffer());
    expect(tar.subarray(257, 262).toString()).toBe('ustar');
  });

  // Last: it closes the thread the other tests share.
  it('refuses queries once closed', async () => {
    await thread.close();
    await expect(thread.query('select 1')).rejects.toThrow('the embedded database is closed');
  });
});
