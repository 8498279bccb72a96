import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const jobStatuses = ['queued', 'running', 'done', 'dead'] as const;
export type JobStatus = (typeof jobStatuses)[number];

/**
 * The one job queue (decision 036): everything that runs outside a request is a row here first —
 * a mail to send, a postback, a periodic sweep. A job's (queue, key) is unique, so enqueuing the same
 * work twice (from two instances, or a retried request) makes one job; instances claim due jobs with
 * `FOR UPDATE SKIP LOCKED` and hold them for a lease, so a job whose instance died is claimed again
 * once its lease ends. Failed attempts are retried with a backoff; after the last one the job is dead.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial().primaryKey(),
    queue: text().notNull(),
    key: text().notNull(),
    payload: jsonb().$type<unknown>().notNull(),
    status: text({ enum: jobStatuses }).notNull().default('queued'),
    runAt: timestamp({ withTimezone: true }).notNull(),
    attempts: integer().notNull().default(0),
    /** The instance holding the job, and until when (a lease; after it any instance may take it). */
    lockedBy: text(),
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('jobs_queue_key_unique').on(table.queue, table.key),
    index('jobs_due_idx').on(table.runAt).where(sql`${table.status} = 'queued'`),
    index('jobs_leased_idx').on(table.lockedUntil).where(sql`${table.status} = 'running'`),
    index('jobs_finished_idx').on(table.finishedAt).where(sql`${table.status} in ('done', 'dead')`),
  ],
);
