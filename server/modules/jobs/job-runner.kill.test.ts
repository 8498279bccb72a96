import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.ts';
import { projectRoot } from '#server/lib/project-root.ts';
import { createTestDatabase, testPooler } from '../../../tests/setup/test-database.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
const total = 10_000;
const leaseMs = 3_000;
const queue = 'test.kill-nine';

type Said = { ready?: string; holding?: string; caught?: string; error?: string };

/** One job-runner instance in a child process (tests/setup/job-worker-child.ts), and what it said. */
function startInstance(databaseUrl: string, instance: string, holdAfter?: number) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(projectRoot, 'tests/setup/job-worker-child.ts')],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        JOB_DATABASE_URL: databaseUrl,
        JOB_INSTANCE: instance,
        JOB_QUEUE: queue,
        JOB_LEASE_MS: String(leaseMs),
        JOB_POOLER: testPooler.pooler,
        ...(holdAfter === undefined ? {} : { JOB_HOLD_AFTER: String(holdAfter) }),
      },
    },
  );
  const said: Said[] = [];
  const stderr: string[] = [];
  const waiters: { test: (line: Said) => boolean; resolve: (line: Said) => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (text) => {
    const line = JSON.parse(text) as Said;
    said.push(line);
    for (const waiter of waiters.filter((w) => w.test(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = once(child, 'exit');
  return {
    child,
    said,
    stderr,
    exited,
    /** Resolves on the first line (past or coming) that passes `test`. */
    saying(test: (line: Said) => boolean): Promise<Said> {
      const seen = said.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ test, resolve });
        exited.then(() => reject(new Error(`${instance} exited: ${stderr.join('')}`)));
      });
    },
  };
}

// On PostgreSQL only: two processes need a database both can reach; the embedded one is in-process.
describe.runIf(onPostgres)('the job runner on two processes, one killed with SIGKILL mid-run', () => {
  let database: { handle: DatabaseHandle; url?: string; drop(): Promise<void> };
  const instances: ReturnType<typeof startInstance>[] = [];

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
    const a = startInstance(url, 'instance-a', 1500);
    const b = startInstance(url, 'instance-b');
    instances.push(a, b);
    const held = await a.saying((line) => line.holding !== undefined);
    expect(a.child.kill('SIGKILL')).toBe(true);
    const [, signal] = await a.exited;
    expect(signal).toBe('SIGKILL');

    const heldAtDeath = await db.execute<{ key: string }>(
      sql`select key from jobs where queue = ${queue} and status = 'running' and locked_by = 'instance-a'`,
    );
    const orphaned = heldAtDeath.rows.map((row) => row.key);
    expect(orphaned).toContain(held.holding);

    // B finishes everything, the orphaned jobs once their lease ran out.
    await vi.waitFor(
      async () => {
        const left = await db.execute<{ n: number }>(
          sql`select count(*)::int as n from jobs where queue = ${queue} and status <> 'done'`,
        );
        expect(left.rows[0]?.n).toBe(0);
      },
      { timeout: 110_000, interval: 250 },
    );

    const [jobsDone, effects, perInstance, reclaimed] = await Promise.all([
      db.execute<{ n: number }>(
        sql`select count(*)::int as n from jobs where queue = ${queue} and status = 'done'`,
      ),
      db.execute<{ n: number; missing: number }>(sql`
        select count(*)::int as n,
               (select count(*)::int from jobs j where j.queue = ${queue}
                  and not exists (select 1 from job_effects e where e.key = j.key)) as missing
        from job_effects`),
      db.execute<{ instance: string; n: number }>(
        sql`select instance, count(*)::int as n from job_effects group by instance order by instance`,
      ),
      db.execute<{ key: string; attempts: number; instance: string }>(sql`
        select j.key, j.attempts, e.instance from jobs j join job_effects e on e.key = j.key
        where j.queue = ${queue} and j.attempts > 1 order by j.key`),
    ]);
    // Every job done, each with exactly one committed effect (the key is the effect's primary key,
    // and no completion failed on it: see B's reports below), none without one.
    expect(jobsDone.rows[0]?.n).toBe(total);
    expect(effects.rows[0]).toEqual({ n: total, missing: 0 });
    // Both instances did their share before the kill.
    const shares = Object.fromEntries(perInstance.rows.map((row) => [row.instance, row.n]));
    expect(shares['instance-a']).toBeGreaterThanOrEqual(1000);
    expect(shares['instance-b']).toBeGreaterThan(0);
    // The only jobs tried twice are those A held when it died; B took each over after its lease
    // and completed it, the held one included (A's uncommitted effect of it was rolled back).
    expect(reclaimed.rows.map((row) => row.key).sort()).toEqual([...orphaned].sort());
    expect(reclaimed.rows.every((row) => row.attempts === 2 && row.instance === 'instance-b')).toBe(true);
    // B never failed a job: no duplicate key, no lost lease, nothing retried.
    expect(b.said.filter((line) => line.caught !== undefined)).toEqual([]);
    // ~55 s on two cores shared with seven other test runs (load 8); the budget leaves room for that.
  }, 120_000);
});
