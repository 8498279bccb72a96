import { and, asc, eq, inArray, lt, lte, or, type SQLWrapper, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { type JobStatus, jobs } from '#server/db/schema/jobs.ts';

export type JobRow = typeof jobs.$inferSelect;

/** A new job; nothing when the queue already holds one with this key (then false). */
export async function insertJob(
  db: Executor,
  job: { queue: string; key: string; payload: unknown; runAt: Date; at: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(jobs)
    .values({
      queue: job.queue,
      key: job.key,
      payload: job.payload,
      runAt: job.runAt,
      createdAt: job.at,
    })
    .onConflictDoNothing({ target: [jobs.queue, jobs.key] })
    .returning({ id: jobs.id });
  return inserted.length > 0;
}

/** Marks the selected jobs running for this instance until `leaseUntil`, one more attempt each. */
function take(
  db: Executor,
  due: SQLWrapper,
  claim: { instance: string; leaseUntil: Date },
): Promise<JobRow[]> {
  return db
    .update(jobs)
    .set({
      status: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedBy: claim.instance,
      lockedUntil: claim.leaseUntil,
    })
    .where(inArray(jobs.id, due))
    .returning();
}

/**
 * Takes up to `limit` due jobs of these queues for this instance until `leaseUntil`: queued ones
 * whose time has come, and running ones whose holder's lease ran out (an instance that died).
 * Rows another instance is claiming at this moment are skipped, never waited for.
 */
export async function claimDueJobs(
  db: Executor,
  claim: { queues: string[]; now: Date; leaseUntil: Date; instance: string; limit: number },
): Promise<JobRow[]> {
  if (claim.queues.length === 0) return [];
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.queue, claim.queues),
        or(
          and(eq(jobs.status, 'queued'), lte(jobs.runAt, claim.now)),
          and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, claim.now)),
        ),
      ),
    )
    .orderBy(asc(jobs.runAt), asc(jobs.id))
    .limit(claim.limit)
    .for('update', { skipLocked: true });
  return take(db, due, claim);
}

/** Takes these queued jobs of one queue for this instance (the work enqueued just now, run at once). */
export async function claimJobsByKey(
  db: Executor,
  claim: { queue: string; keys: string[]; now: Date; leaseUntil: Date; instance: string },
): Promise<JobRow[]> {
  if (claim.keys.length === 0) return [];
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.queue, claim.queue),
        inArray(jobs.key, claim.keys),
        eq(jobs.status, 'queued'),
        lte(jobs.runAt, claim.now),
      ),
    )
    .for('update', { skipLocked: true });
  return take(db, due, claim);
}

/** The end of an attempt, written only while this instance still holds the job's lease. */
export async function finishAttempt(
  db: Executor,
  job: { id: number; instance: string; attempts: number },
  outcome:
    | { status: 'done'; at: Date }
    | { status: 'queued'; runAt: Date; error: string }
    | { status: 'dead'; at: Date; error: string },
): Promise<boolean> {
  const set =
    outcome.status === 'done'
      ? { status: outcome.status, finishedAt: outcome.at, lockedBy: null, lockedUntil: null, lastError: null }
      : outcome.status === 'queued'
        ? {
            status: outcome.status,
            runAt: outcome.runAt,
            lockedBy: null,
            lockedUntil: null,
            lastError: outcome.error,
          }
        : {
            status: outcome.status,
            finishedAt: outcome.at,
            lockedBy: null,
            lockedUntil: null,
            lastError: outcome.error,
          };
  const updated = await db
    .update(jobs)
    .set(set)
    .where(
      and(
        eq(jobs.id, job.id),
        eq(jobs.status, 'running'),
        eq(jobs.lockedBy, job.instance),
        eq(jobs.attempts, job.attempts),
      ),
    )
    .returning({ id: jobs.id });
  return updated.length > 0;
}

/** Jobs per queue and status (the queue depths of /metrics). */
export async function countJobs(
  db: Executor,
): Promise<{ queue: string; status: JobStatus; count: number }[]> {
  return db
    .select({ queue: jobs.queue, status: jobs.status, count: sql<number>`count(*)::int` })
    .from(jobs)
    .where(inArray(jobs.status, ['queued', 'running', 'dead']))
    .groupBy(jobs.queue, jobs.status);
}

/** Finished jobs (done or dead) older than `before` are forgotten; returns how many. */
export async function pruneFinishedJobs(db: Executor, before: Date): Promise<number> {
  const removed = await db
    .delete(jobs)
    .where(and(inArray(jobs.status, ['done', 'dead']), lt(jobs.finishedAt, before)))
    .returning({ id: jobs.id });
  return removed.length;
}

export async function findJob(db: Executor, queue: string, key: string): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.queue, queue), eq(jobs.key, key)))
    .limit(1);
  return row;
}
