import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { z } from 'zod';
import type { Database, Executor, Transaction } from '#server/db/client.ts';
import type { ReportCaught } from '#server/lib/best-effort.ts';
import type { Clock } from '#server/lib/clock.ts';
import {
  claimDueJobs,
  claimJobsByKey,
  countJobs,
  finishAttempt,
  insertJob,
  type JobRow,
  pruneFinishedJobs,
} from './jobs.repository.ts';

/** What a job's code is told about the attempt it runs. */
export type JobAttempt = {
  id: number;
  key: string;
  attempt: number;
  maxAttempts: number;
  last: boolean;
  /**
   * Runs the job's database work in one transaction with the job's completion (decision 057): the
   * transaction first marks the job done while this instance still holds its lease — which locks the
   * job's row, so no other instance can take it meanwhile — then runs `work`. Either both commit or
   * neither does: an instance killed in the middle leaves no half of it, and the instance that takes
   * the job after the lease runs it whole. Throws {@link JobLeaseLost} (nothing written) when the
   * lease has gone to another instance.
   */
  completeWith<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
};

/** The job's lease went to another instance before this attempt could complete it. */
export class JobLeaseLost extends Error {
  constructor(queue: string, key: string) {
    super(`The lease of job ${queue}/${key} went to another instance`);
    this.name = 'JobLeaseLost';
  }
}

/**
 * A kind of job: its queue's name and its payload's schema. Defined where the work belongs (the mail
 * module defines `mail.send`), enqueued from anywhere — inside the caller's transaction when the job
 * goes with a change — and run by the one runner that handles it.
 */
export type JobType<P> = {
  readonly name: string;
  readonly payload: z.ZodType<P>;
  /** Puts a job on the queue; false when the queue already holds one with this key (nothing happens). */
  enqueue(db: Executor, key: string, payload: P, when: { at: Date; runAt?: Date }): Promise<boolean>;
};

export function defineJob<P>(name: string, payload: z.ZodType<P>): JobType<P> {
  return {
    name,
    payload,
    enqueue: (db, key, value, when) =>
      insertJob(db, { queue: name, key, payload: value, runAt: when.runAt ?? when.at, at: when.at }),
  };
}

export type JobHandler<P> = {
  run: (payload: P, attempt: JobAttempt) => Promise<void>;
  /** Attempts before the job is dead (default 10). */
  maxAttempts?: number;
  /** The wait before the next attempt after `attempts` failed ones (default 30 s doubling, at most 1 h). */
  retryDelayMs?: (attempts: number) => number;
  /** How long an attempt may hold the job before another instance may take it (default 5 min). */
  leaseMs?: number;
  /** Told once the last attempt failed (the dead letter): the error is in the job's row too. */
  onDead?: (payload: P, error: unknown) => Promise<void>;
};

/** The counters the runner feeds (server/lib/metrics.ts). */
export type JobMetrics = {
  jobRuns: { inc(labels: { queue: string; outcome: 'done' | 'retry' | 'dead' | 'lease_lost' }): void };
  jobFailures: { inc(labels: { queue: string }): void };
};

type Registered = {
  name: string;
  maxAttempts: number;
  leaseMs: number;
  attempt(row: JobRow, completeWith: JobAttempt['completeWith']): Promise<void>;
  retryDelayMs(attempts: number): number;
  dead(row: JobRow, error: unknown): Promise<void>;
};

const periodSchema = z.object({ period: z.string() });

type Recurring = { type: JobType<{ period: string }>; everyMs: number; lastPeriod: number | undefined };

/** 30 s, 1 min, 2 min … at most 1 h. */
export function defaultRetryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

/**
 * The one job runner (decision 036): every instance runs one, and they share the `jobs` table.
 * Work is enqueued with a unique key (in the caller's transaction when it goes with a change), a
 * worker claims due jobs with `FOR UPDATE SKIP LOCKED` under a lease, runs them, and records the
 * outcome only while it still holds the lease. Recurring work (`every`) is a job per period whose
 * key is the period, so however many instances run, each period's run happens once.
 */
export class JobRunner {
  private readonly queues = new Map<string, Registered>();
  private readonly recurring: Recurring[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<number> | undefined;
  readonly instance: string;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly options: {
      reportCaught: ReportCaught;
      metrics?: JobMetrics;
      /** How often the worker looks for due jobs (default 1 s). */
      pollMs?: number;
      instance?: string;
      /**
       * How many claimed jobs this instance runs at once (default 1, one after the other). More needs
       * as many connections in the pool: each attempt that completes with `completeWith` holds one.
       */
      concurrency?: number;
    },
  ) {
    this.instance = options.instance ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  /** Runs this kind of job on this instance (each kind is handled once per runner). */
  handle<P>(type: JobType<P>, handler: JobHandler<P>): void {
    if (this.queues.has(type.name)) throw new Error(`Jobs ${type.name} are handled twice`);
    const maxAttempts = handler.maxAttempts ?? 10;
    this.queues.set(type.name, {
      name: type.name,
      maxAttempts,
      leaseMs: handler.leaseMs ?? 5 * 60_000,
      retryDelayMs: handler.retryDelayMs ?? defaultRetryDelayMs,
      attempt: async (row, completeWith) => {
        const payload = type.payload.parse(row.payload);
        await handler.run(payload, {
          id: row.id,
          key: row.key,
          attempt: row.attempts,
          maxAttempts,
          last: row.attempts >= maxAttempts,
          completeWith,
        });
      },
      dead: async (row, error) => {
        const parsed = type.payload.safeParse(row.payload);
        if (parsed.success) await handler.onDead?.(parsed.data, error);
      },
    });
  }

  /**
   * Recurring work: one job per period of `everyMs` (counted from the epoch), run once by whichever
   * instance claims it first. A failed run is retried like any job, and the next period runs anyway.
   */
  every(name: string, everyMs: number, run: (periodStart: Date) => Promise<void>, maxAttempts = 3): void {
    const type = defineJob(name, periodSchema);
    this.handle(type, {
      maxAttempts,
      retryDelayMs: () => Math.min(everyMs, 60_000),
      run: async ({ period }) => run(new Date(period)),
    });
    this.recurring.push({ type, everyMs, lastPeriod: undefined });
  }

  /** Puts this period's job of each recurring queue in the table, once per period and instance. */
  private async schedule(queues: string[]): Promise<void> {
    const now = this.clock.now().getTime();
    for (const entry of this.recurring) {
      if (!queues.includes(entry.type.name)) continue;
      const period = Math.floor(now / entry.everyMs);
      if (entry.lastPeriod === period) continue;
      const start = new Date(period * entry.everyMs);
      await entry.type.enqueue(
        this.db,
        `period:${period}`,
        { period: start.toISOString() },
        { at: this.clock.now(), runAt: start },
      );
      entry.lastPeriod = period;
    }
  }

  /**
   * Runs what is due now (recurring periods included), until nothing is; returns the attempts made.
   * Overlapping calls share one run. `queues` limits it to some queues (a test's tick).
   */
  runDue(queues?: string[]): Promise<number> {
    if (queues) return this.drain(queues);
    this.running ??= this.drain([...this.queues.keys()]).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drain(queues: string[]): Promise<number> {
    await this.schedule(queues);
    let attempts = 0;
    for (;;) {
      const now = this.clock.now();
      const leaseMs = Math.max(...queues.map((name) => this.queues.get(name)?.leaseMs ?? 0));
      const batch = await claimDueJobs(this.db, {
        queues: queues.filter((name) => this.queues.has(name)),
        now,
        leaseUntil: new Date(now.getTime() + leaseMs),
        instance: this.instance,
        limit: Math.max(10, 2 * (this.options.concurrency ?? 1)),
      });
      if (batch.length === 0) return attempts;
      attempts += batch.length;
      const lanes = Math.max(1, Math.min(this.options.concurrency ?? 1, batch.length));
      let next = 0;
      await Promise.all(
        Array.from({ length: lanes }, async () => {
          for (let row = batch[next++]; row; row = batch[next++]) await this.attempt(row);
        }),
      );
    }
  }

  /**
   * Runs these jobs of one kind now, on this instance (work the caller just enqueued and waits for:
   * a push after a message). One that fails is retried later by the worker like any job.
   */
  async runNow<P>(type: JobType<P>, keys: string[]): Promise<void> {
    const queue = this.queues.get(type.name);
    if (!queue) throw new Error(`Jobs ${type.name} have no handler`);
    const now = this.clock.now();
    const claimed = await claimJobsByKey(this.db, {
      queue: type.name,
      keys,
      now,
      leaseUntil: new Date(now.getTime() + queue.leaseMs),
      instance: this.instance,
    });
    for (const row of claimed) await this.attempt(row);
  }

  private async attempt(row: JobRow): Promise<void> {
    const queue = this.queues.get(row.queue);
    if (!queue) return;
    const held = { id: row.id, instance: this.instance, attempts: row.attempts };
    let completed = false;
    const completeWith = async <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => {
      if (completed) throw new Error(`Job ${row.queue}/${row.key} was completed already`);
      const result = await this.db.transaction(async (tx) => {
        if (!(await finishAttempt(tx, held, { status: 'done', at: this.clock.now() })))
          throw new JobLeaseLost(row.queue, row.key);
        return work(tx);
      });
      completed = true;
      return result;
    };
    try {
      await queue.attempt(row, completeWith);
      if (!completed) await finishAttempt(this.db, held, { status: 'done', at: this.clock.now() });
      this.options.metrics?.jobRuns.inc({ queue: row.queue, outcome: 'done' });
      return;
    } catch (error) {
      if (error instanceof JobLeaseLost) {
        // Another instance holds the job now and runs it whole; this attempt wrote nothing.
        this.options.metrics?.jobRuns.inc({ queue: row.queue, outcome: 'lease_lost' });
        this.options.reportCaught(`job.${row.queue}.lease-lost`, error);
        return;
      }
      if (completed) {
        // The job's work committed with its completion; what failed after it changes nothing.
        this.options.metrics?.jobRuns.inc({ queue: row.queue, outcome: 'done' });
        this.options.reportCaught(`job.${row.queue}.after-completion`, error);
        return;
      }
      this.options.metrics?.jobFailures.inc({ queue: row.queue });
      const dead = row.attempts >= queue.maxAttempts;
      if (!dead) {
        await finishAttempt(this.db, held, {
          status: 'queued',
          runAt: new Date(this.clock.now().getTime() + queue.retryDelayMs(row.attempts)),
          error: errorText(error),
        });
        this.options.metrics?.jobRuns.inc({ queue: row.queue, outcome: 'retry' });
        this.options.reportCaught(`job.${row.queue}`, error);
        return;
      }
      await finishAttempt(this.db, held, { status: 'dead', at: this.clock.now(), error: errorText(error) });
      this.options.metrics?.jobRuns.inc({ queue: row.queue, outcome: 'dead' });
      this.options.reportCaught(`job.${row.queue}.dead`, error, 'error');
      await queue.dead(row, error);
    }
  }

  /** Jobs waiting, running and dead per queue (the job gauges of /metrics). */
  counts() {
    return countJobs(this.db);
  }

  /** The worker of this instance: looks for due jobs every `pollMs`; a failed look is reported and retried. */
  start(): void {
    this.timer ??= setInterval(() => {
      this.runDue().catch((error: unknown) => this.options.reportCaught('job-runner.poll', error, 'error'));
    }, this.options.pollMs ?? 1000);
    this.timer.unref();
  }

  /** Forgets finished jobs (done or dead) finished before `before`; returns how many. */
  pruneFinished(before: Date): Promise<number> {
    return pruneFinishedJobs(this.db, before);
  }

  /** Stops the worker and waits for the attempt in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch((error: unknown) => this.options.reportCaught('job-runner.stop', error));
  }
}
