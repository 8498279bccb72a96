import type { Database, Executor } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { loggableError } from '#server/lib/error-handler.ts';
import {
  claimDueMails,
  conditionHolds,
  countPendingMails,
  insertMail,
  markMailFailed,
  markMailSent,
  markMailSkipped,
  type NewMail,
} from './mail.repository.ts';
import type { MailSender } from './mail-templates.ts';
import type { MailTransport } from './mail-transport.ts';

const leaseMs = 5 * 60_000;
const maxAttempts = 12;

/** 30 s, 1 min, 2 min … capped at 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/** The bare address of a From value such as `Brand <no-reply@example.com>` or `no-reply@example.com`. */
export function addressOf(from: string): string {
  return (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim();
}

/** `"Display Name" <address>`, with quotes and backslashes in the name escaped (RFC 5322 quoted-string). */
export function formatSender(name: string, address: string): string {
  const clean = name.replace(/[\r\n]/g, ' ').trim();
  return clean ? `"${clean.replace(/(["\\])/g, '\\$1')}" <${address}>` : address;
}

type Logger = { warn(object: object, message: string): void; error(object: object, message: string): void };

/** The counters the queue feeds (server/lib/metrics.ts). */
type MailMetrics = {
  mailFailures: { inc(labels: { outcome: 'retry' | 'final' }): void };
  jobFailures: { inc(labels: { queue: string }): void };
};

/** The durable mail queue: enqueue in the same transaction as the change, send from a worker. */
export class MailQueue {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: Database,
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly metrics?: MailMetrics,
  ) {}

  /** Mails waiting to be sent (the job queue depth of /metrics). */
  pending(): Promise<number> {
    return countPendingMails(this.db);
  }

  /** Queues a mail; a rendered mail's site sender becomes its From, with MAIL_FROM's address when the site has none. */
  async enqueue(db: Executor, mail: NewMail & { sender?: MailSender }): Promise<number> {
    const { sender, ...rest } = mail;
    const from = sender ? formatSender(sender.name, sender.address ?? addressOf(this.from)) : rest.from;
    return insertMail(db, { ...rest, ...(from ? { from } : {}) }, this.clock.now());
  }

  /** Sends what is due; returns how many were sent. Overlapping calls share one run. */
  processDue(): Promise<number> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<number> {
    let sent = 0;
    for (;;) {
      const now = this.clock.now();
      const batch = await claimDueMails(this.db, now, new Date(now.getTime() + leaseMs), 20);
      if (batch.length === 0) return sent;
      for (const job of batch) {
        if (!(await conditionHolds(this.db, job.condition))) {
          await markMailSkipped(this.db, job.id);
          continue;
        }
        try {
          await this.transport.send({
            id: job.id,
            from: job.from ?? this.from,
            to: job.to,
            subject: job.subject,
            html: job.html,
            text: job.text,
            headers: job.headers,
          });
          await markMailSent(this.db, job.id, this.clock.now());
          sent++;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const retryAt =
            job.attempts >= maxAttempts
              ? null
              : new Date(this.clock.now().getTime() + retryDelayMs(job.attempts));
          // Never silent: logged with the job's context and counted; given up (status failed) after maxAttempts.
          const context = {
            mailId: job.id,
            kind: job.kind,
            attempts: job.attempts,
            maxAttempts,
            error: message,
          };
          if (retryAt) this.log.warn({ ...context, retryAt }, 'mail delivery failed, will retry');
          else this.log.error(context, 'mail delivery failed for good');
          this.metrics?.mailFailures.inc({ outcome: retryAt ? 'retry' : 'final' });
          this.metrics?.jobFailures.inc({ queue: 'mail' });
          await markMailFailed(this.db, job.id, message, retryAt);
        }
      }
    }
  }

  start(intervalMs = 2000): void {
    this.timer ??= setInterval(
      () =>
        void this.processDue().catch((error: unknown) => {
          // E.g. the database is away: the mails stay pending and the next run picks them up.
          this.metrics?.jobFailures.inc({ queue: 'mail' });
          this.log.error({ err: loggableError(error) }, 'mail worker run failed');
        }),
      intervalMs,
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => {
      // expected: a run's failure went to whoever started it (processDue's caller; start() logs and counts).
    });
    this.transport.close();
  }
}
