/**
 * One job-runner instance in a process of its own, for the test that kills one with SIGKILL in the
 * middle of a run (server/modules/jobs/job-runner.kill.test.ts). It handles the test's queue with
 * the runner's own worker (`start()`): each job writes its effect in one transaction with its
 * completion (`completeWith`) into `job_effects`, whose primary key is the job's key, so a second
 * completion of one job could only fail.
 *
 * Told by its environment: JOB_DATABASE_URL, JOB_INSTANCE, JOB_QUEUE, JOB_LEASE_MS, JOB_POOLER and
 * JOB_HOLD_AFTER (after that many started jobs, the next one stops inside its transaction, effect
 * written and not committed, and says so on stdout: the moment the test kills this process).
 * It reports on stdout, one JSON object a line.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { connectPostgres } from '../../server/db/client.ts';
import { systemClock } from '../../server/lib/clock.ts';
import { defineJob, JobRunner } from '../../server/modules/jobs/job-runner.ts';

const env = z
  .object({
    JOB_DATABASE_URL: z.string().min(1),
    JOB_INSTANCE: z.string().min(1),
    JOB_QUEUE: z.string().min(1),
    JOB_LEASE_MS: z.coerce.number().int().positive(),
    JOB_POOLER: z.enum(['none', 'transaction']).default('none'),
    JOB_HOLD_AFTER: z.coerce.number().int().nonnegative().optional(),
  })
  .parse(process.env);

const say = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);

const handle = await connectPostgres(env.JOB_DATABASE_URL, 8, { pooler: env.JOB_POOLER });
const runner = new JobRunner(handle.db, systemClock, {
  instance: env.JOB_INSTANCE,
  pollMs: 50,
  concurrency: 8,
  reportCaught: (where, error) =>
    say({ caught: where, error: error instanceof Error ? error.message : String(error) }),
});
const job = defineJob(env.JOB_QUEUE, z.object({ n: z.number().int() }));
let started = 0;
runner.handle(job, {
  leaseMs: env.JOB_LEASE_MS,
  run: async ({ n }, attempt) => {
    started++;
    await attempt.completeWith(async (tx) => {
      await tx.execute(
        sql`insert into job_effects (key, n, instance) values (${attempt.key}, ${n}, ${env.JOB_INSTANCE})`,
      );
      if (env.JOB_HOLD_AFTER !== undefined && started > env.JOB_HOLD_AFTER) {
        say({ holding: attempt.key });
        // Never settles: the process is killed here, its transaction open.
        await new Promise<never>(() => undefined);
      }
    });
  },
});
runner.start();
// The parent holds this process's stdin: once it closes it (the test ended, or died), so does this.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
say({ ready: env.JOB_INSTANCE });
