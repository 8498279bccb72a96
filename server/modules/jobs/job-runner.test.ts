import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { z } from 'zod';
import type { Database, DatabaseHandle } from '#server/db/client.ts';
import { jobs } from '#server/db/schema/jobs.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { startJobInstance } from '../../../tests/setup/job-instances.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { createTestDatabase, testPooler } from '../../../tests/setup/test-database.ts';
import { defineJob, JobRunner } from './job-runner.ts';
import { claimDueJobs } from './jobs.repository.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

/** A reporter that keeps what it was told, as the app's logs and caught_errors_total would. */
function reports() {
  const seen: { where: string; level: string }[] = [];
  return {
    seen,
    reportCaught: (where: string, _error: unknown, level = 'warn') => void seen.push({ where, level }),
  };
}

describe('the job runner', () => {
  let t: TestApp;
  let db: Database;
  const clock = createFakeClock();
  let queueCount = 0;
  /** A queue of its own for each test, so the tests never share jobs. */
  const freshJob = () => defineJob(`test.queue-${++queueCount}`, z.object({ n: z.number() }));
  const rowsOf = (queue: string) => db.select().from(jobs).where(eq(jobs.queue, queue));

  beforeAll(async () => {
    t = await createTestApp({}, { clock });
    db = t.database.db;
  });
  afterAll(() => t.close());

  it('makes one job of one key, however often and from wherever it is enqueued', async () => {
    const job = freshJob();
    const runner = new JobRunner(db, clock, reports());
    const ran: number[] = [];
    runner.handle(job, { run: async ({ n }) => void ran.push(n) });
    const added = await Promise.all(
      Array.from({ length: 5 }, (_, n) => job.enqueue(db, 'the-key', { n }, { at: clock.now() })),
    );
    expect(added.filter(Boolean)).toHaveLength(1);
    expect(await runner.runDue([job.name])).toBe(1);
    expect(ran).toHaveLength(1);
    // Done is done: the same key again is no new job.
    expect(await job.enqueue(db, 'the-key', { n: 9 }, { at: clock.now() })).toBe(false);
    expect(await runner.runDue([job.name])).toBe(0);
  });

  it('runs a job when it is due, not before', async () => {
    const job = freshJob();
    const runner = new JobRunner(db, clock, reports());
    let ran = 0;
    runner.handle(job, { run: async () => void ran++ });
    await job.enqueue(
      db,
      'later',
      { n: 1 },
      { at: clock.now(), runAt: new Date(clock.now().getTime() + 60_000) },
    );
    expect(await runner.runDue([job.name])).toBe(0);
    clock.advanceMinutes(1);
    expect(await runner.runDue([job.name])).toBe(1);
    expect(ran).toBe(1);
  });

  it('retries a failing job with its backoff, reports each failure, and after the last attempt it is dead', async () => {
    const job = freshJob();
    const told = reports();
    const runner = new JobRunner(db, clock, told);
    const dead: number[] = [];
    let attempts = 0;
    runner.handle(job, {
      maxAttempts: 3,
      retryDelayMs: (failed) => failed * 10_000,
      run: async () => {
        attempts++;
        throw new Error('the far side is down');
      },
      onDead: async ({ n }) => void dead.push(n),
    });
    await job.enqueue(db, 'flaky', { n: 7 }, { at: clock.now() });
    expect(await runner.runDue([job.name])).toBe(1);
    const [afterOne] = await rowsOf(job.name);
    expect(afterOne).toMatchObject({ status: 'queued', attempts: 1, lastError: 'the far side is down' });
    expect(afterOne!.runAt.getTime() - clock.now().getTime()).toBe(10_000);
    // Not again before its time.
    expect(await runner.runDue([job.name])).toBe(0);
    clock.advanceMinutes(1);
    expect(await runner.runDue([job.name])).toBe(1);
    clock.advanceMinutes(1);
    expect(await runner.runDue([job.name])).toBe(1);
    clock.advanceMinutes(60);
    expect(await runner.runDue([job.name])).toBe(0);
    expect(attempts).toBe(3);
    const [row] = await rowsOf(job.name);
    expect(row).toMatchObject({ status: 'dead', attempts: 3, lockedBy: null });
    expect(dead).toEqual([7]);
    expect(told.seen).toEqual([
      { where: `job.${job.name}`, level: 'warn' },
      { where: `job.${job.name}`, level: 'warn' },
      { where: `job.${job.name}.dead`, level: 'error' },
    ]);
  });

  it('gives a job whose instance died to another once its lease is over; the late one cannot finish it', async () => {
    const job = freshJob();
    await job.enqueue(db, 'orphan', { n: 1 }, { at: clock.now() });
    // Instance A claims it and is killed before finishing (nothing of it runs any more).
    const claimed = await claimDueJobs(db, {
      queues: [job.name],
      now: clock.now(),
      leaseUntil: new Date(clock.now().getTime() + 60_000),
      instance: 'instance-a',
      limit: 10,
    });
    expect(claimed).toHaveLength(1);
    const b = new JobRunner(db, clock, { ...reports(), instance: 'instance-b' });
    let ran = 0;
    b.handle(job, { leaseMs: 60_000, run: async () => void ran++ });
    expect(await b.runDue([job.name])).toBe(0);
    clock.advanceMinutes(2);
    expect(await b.runDue([job.name])).toBe(1);
    expect(ran).toBe(1);
    const [row] = await rowsOf(job.name);
    expect(row).toMatchObject({ status: 'done', attempts: 2 });
    // Instance A coming back cannot write over it: its lease is gone.
    const { finishAttempt } = await import('./jobs.repository.ts');
    expect(
      await finishAttempt(
        db,
        { id: row!.id, instance: 'instance-a', attempts: 1 },
        { status: 'done', at: clock.now() },
      ),
    ).toBe(false);
  });

  it('completes a job in one transaction with its work: a failing work leaves neither, a lost lease writes nothing', async () => {
    const job = freshJob();
    const told = reports();
    const runner = new JobRunner(db, clock, { ...told, instance: 'instance-tx' });
    let failNext = true;
    const effects: string[] = [];
    runner.handle(job, {
      retryDelayMs: () => 60_000,
      run: async (_payload, attempt) => {
        await attempt.completeWith(async (tx) => {
          const [row] = await tx.select().from(jobs).where(eq(jobs.id, attempt.id));
          // Inside the transaction the job is done already: both commit or neither does.
          expect(row?.status).toBe('done');
          if (failNext) {
            failNext = false;
            throw new Error('the work failed half-way');
          }
          effects.push(attempt.key);
        });
      },
    });
    await job.enqueue(db, 'atomic', { n: 1 }, { at: clock.now() });
    expect(await runner.runDue([job.name])).toBe(1);
    // The failed transaction took the completion with it: the job is queued again, not done.
    expect((await rowsOf(job.name))[0]).toMatchObject({ status: 'queued', attempts: 1 });
    clock.advanceMinutes(1);
    expect(await runner.runDue([job.name])).toBe(1);
    expect((await rowsOf(job.name))[0]).toMatchObject({ status: 'done', attempts: 2 });
    expect(effects).toEqual(['atomic']);

    // An attempt whose lease went to another instance meanwhile writes nothing and is not retried.
    const late = freshJob();
    const lateRunner = new JobRunner(db, clock, { ...told, instance: 'instance-late' });
    let wrote = false;
    lateRunner.handle(late, {
      run: async (_payload, attempt) => {
        await db.update(jobs).set({ lockedBy: 'instance-other' }).where(eq(jobs.id, attempt.id));
        await attempt.completeWith(async () => {
          wrote = true;
        });
      },
    });
    await late.enqueue(db, 'taken', { n: 2 }, { at: clock.now() });
    expect(await lateRunner.runDue([late.name])).toBe(1);
    expect(wrote).toBe(false);
    expect((await rowsOf(late.name))[0]).toMatchObject({ status: 'running', lockedBy: 'instance-other' });
    expect(told.seen).toContainEqual({ where: `job.${late.name}.lease-lost`, level: 'warn' });
  });

  it('runs claimed jobs side by side with a concurrency, each once', async () => {
    const job = freshJob();
    const runner = new JobRunner(db, clock, { ...reports(), concurrency: 4 });
    let inFlight = 0;
    let most = 0;
    const ran: number[] = [];
    runner.handle(job, {
      run: async ({ n }) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        ran.push(n);
        inFlight--;
      },
    });
    for (let n = 0; n < 20; n++) await job.enqueue(db, `c${n}`, { n }, { at: clock.now() });
    expect(await runner.runDue([job.name])).toBe(20);
    expect(ran.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(4);
  });

  it('makes a payload that no longer fits its schema dead at once, with the reason', async () => {
    const job = freshJob();
    const runner = new JobRunner(db, clock, reports());
    runner.handle(job, { maxAttempts: 1, run: async () => undefined });
    await db.insert(jobs).values({
      queue: job.name,
      key: 'broken',
      payload: { n: 'not a number' },
      runAt: clock.now(),
      createdAt: clock.now(),
    });
    expect(await runner.runDue([job.name])).toBe(1);
    const [row] = await rowsOf(job.name);
    expect(row!.status).toBe('dead');
    expect(row!.lastError).toContain('expected number');
  });

  it('runs recurring work once per period across instances', async () => {
    const name = `test.every-${++queueCount}`;
    const periods: string[] = [];
    const runners = [0, 1].map((n) => {
      const runner = new JobRunner(db, clock, { ...reports(), instance: `instance-${n}` });
      runner.every(name, 60_000, async (start) => void periods.push(start.toISOString()));
      return runner;
    });
    for (const runner of runners) await runner.runDue([name]);
    for (const runner of runners) await runner.runDue([name]);
    expect(periods).toHaveLength(1);
    clock.advanceMinutes(1);
    await Promise.all(runners.map((runner) => runner.runDue([name])));
    expect(periods).toHaveLength(2);
    expect(new Set(periods).size).toBe(2);
  });

  // On PostgreSQL only: the embedded database is one connection, so nothing there runs in parallel.
  if (onPostgres)
    it('two instances on their own connections drain 500 jobs: each runs exactly once, none is lost', async () => {
      const { connectPostgres } = await import('#server/db/client.ts');
      const second = await connectPostgres(t.databaseUrl!, 4, testPooler);
      try {
        const job = freshJob();
        const runs = new Map<number, string[]>();
        const runners = [db, second.db].map((connection, n) => {
          const runner = new JobRunner(connection, clock, { ...reports(), instance: `pg-${n}` });
          runner.handle(job, {
            run: async ({ n: value }) => {
              runs.set(value, [...(runs.get(value) ?? []), `pg-${n}`]);
              // A little work, so that both instances are busy at once.
              await new Promise((resolve) => setImmediate(resolve));
            },
          });
          return runner;
        });
        for (let start = 0; start < 500; start += 100) {
          await db.insert(jobs).values(
            Array.from({ length: 100 }, (_, i) => ({
              queue: job.name,
              key: `k${start + i}`,
              payload: { n: start + i },
              runAt: clock.now(),
              createdAt: clock.now(),
            })),
          );
        }
        const [a, b] = await Promise.all(runners.map((runner) => runner.runDue([job.name])));
        expect(a! + b!).toBe(500);
        expect(a).toBeGreaterThan(0);
        expect(b).toBeGreaterThan(0);
        expect(runs.size).toBe(500);
        expect([...runs.values()].every((by) => by.length === 1)).toBe(true);
        const done = await db
          .select()
          .from(jobs)
          .where(and(eq(jobs.queue, job.name), eq(jobs.status, 'done')));
        expect(done).toHaveLength(500);
      } finally {
        await second.close();
      }
    });
});

const total = 10_000;
const leaseMs = 3_000;
const queue = 'test.kill-nine';

/** The rows of a raw query, checked against their shape. */
async function selectRows<T>(db: Database, row: z.ZodType<T>, query: ReturnType<typeof sql>): Promise<T[]> {
  return z.object({ rows: z.array(row) }).parse(await db.execute(query)).rows;
}
const count = z.object({ n: z.number() });

// On PostgreSQL only: two processes need a database both can reach; the embedded one is in-process.
if (onPostgres)
  describe('the job runner on two processes, one killed with SIGKILL mid-run', () => {
    let database: { handle: DatabaseHandle; url?: string; drop(): Promise<void> };
    const instances: ReturnType<typeof startJobInstance>[] = [];

    beforeAll(async () => {
      database = await createTestDatabase(inject('testDatabase'));
      const { db } = database.handle;
      await db.execute(
        sql`create table job_effects (key text primary key, n int not null, instance text not null)`,
      );
      // 10,000 keyed jobs, due now, in ten statements.
      for (let start = 0; start < total; start += 1000) {
        await db.execute(sql`
        insert into jobs (queue, key, payload, run_at, created_at)
        select ${queue}, 'k' || n, jsonb_build_object('n', n), now(), now()
        from generate_series(${start}::int, ${start + 999}::int) as n`);
      }
    });

    afterAll(async () => {
      for (const instance of instances) {
        instance.child.stdin.end();
        if (instance.child.exitCode === null && instance.child.signalCode === null) {
          instance.child.kill('SIGKILL');
          await instance.exited;
        }
      }
      await database.drop();
    });

    it('runs each of 10,000 jobs to completion exactly once: none twice, none lost after the lease is taken over', async () => {
      const url = database.url;
      if (!url) throw new Error('No database URL on PostgreSQL');
      const { db } = database.handle;
      // A stops inside the transaction of its 1,501st job (effect written, not committed) and is
      // killed there, holding that job and the rest of its claimed batch under their leases.
      const a = startJobInstance(url, { instance: 'instance-a', queue, leaseMs, holdAfter: 1500 });
      const b = startJobInstance(url, { instance: 'instance-b', queue, leaseMs });
      instances.push(a, b);
      const held = await a.saying((line) => line.holding !== undefined);
      expect(a.child.kill('SIGKILL')).toBe(true);
      const [, signal] = await a.exited;
      expect(signal).toBe('SIGKILL');

      const heldAtDeath = await selectRows(
        db,
        z.object({ key: z.string() }),
        sql`select key from jobs where queue = ${queue} and status = 'running' and locked_by = 'instance-a'`,
      );
      const orphaned = heldAtDeath.map((row) => row.key);
      expect(orphaned).toContain(held.holding);

      // B finishes everything, the orphaned jobs once their lease ran out.
      await vi.waitFor(
        async () => {
          const left = await selectRows(
            db,
            count,
            sql`select count(*)::int as n from jobs where queue = ${queue} and status <> 'done'`,
          );
          expect(left[0]?.n).toBe(0);
        },
        { timeout: 110_000, interval: 250 },
      );

      const [jobsDone, effects, perInstance, reclaimed] = await Promise.all([
        selectRows(
          db,
          count,
          sql`select count(*)::int as n from jobs where queue = ${queue} and status = 'done'`,
        ),
        selectRows(
          db,
          z.object({ n: z.number(), missing: z.number() }),
          sql`
        select count(*)::int as n,
               (select count(*)::int from jobs j where j.queue = ${queue}
                  and not exists (select 1 from job_effects e where e.key = j.key)) as missing
        from job_effects`,
        ),
        selectRows(
          db,
          z.object({ instance: z.string(), n: z.number() }),
          sql`select instance, count(*)::int as n from job_effects group by instance order by instance`,
        ),
        selectRows(
          db,
          z.object({ key: z.string(), attempts: z.number(), instance: z.string() }),
          sql`
        select j.key, j.attempts, e.instance from jobs j join job_effects e on e.key = j.key
        where j.queue = ${queue} and j.attempts > 1 order by j.key`,
        ),
      ]);
      // Every job done, each with exactly one committed effect (the key is the effect's primary key,
      // and no completion failed on it: see B's reports below), none without one.
      expect(jobsDone[0]?.n).toBe(total);
      expect(effects[0]).toEqual({ n: total, missing: 0 });
      // Both instances did their share before the kill.
      const shares = Object.fromEntries(perInstance.map((row) => [row.instance, row.n]));
      expect(shares['instance-a']).toBeGreaterThanOrEqual(1000);
      expect(shares['instance-b']).toBeGreaterThan(0);
      // The only jobs tried twice are those A held when it died; B took each over after its lease
      // and completed it, the held one included (A's uncommitted effect of it was rolled back).
      expect(reclaimed.map((row) => row.key).sort()).toEqual([...orphaned].sort());
      expect(reclaimed.every((row) => row.attempts === 2 && row.instance === 'instance-b')).toBe(true);
      // B never failed a job: no duplicate key, no lost lease, nothing retried.
      expect(b.said.filter((line) => line.caught !== undefined)).toEqual([]);
    }, 120_000); // ~55 s on two cores shared with seven other test runs (load 8): room for that.
  });
