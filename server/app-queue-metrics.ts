import type { AppDeps } from './app-types.ts';
import type { DatabaseHandle } from './db/client.ts';

/** The backlogs /metrics reports: each queue's waiting work, the job runner's states, the pool. */
export function watchQueues(deps: AppDeps, database: DatabaseHandle): void {
  const { metrics, mail, payments, postbacks, jobs } = deps;
  metrics.queue('mail', () => mail.pending());
  metrics.queue('payments', () => payments.pendingCount());
  metrics.queue('postbacks', () => postbacks.pending());
  // Every job waiting in the runner's table, whatever its queue (a backlog shows here first).
  metrics.queue('jobs', async () =>
    (await jobs.counts()).reduce((sum, row) => sum + (row.status === 'queued' ? row.count : 0), 0),
  );
  metrics.jobsFrom(() => jobs.counts());
  metrics.databasePoolOf(database.pool);
}
