import { z } from 'zod';
import type { Database, Executor } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { defineJob, type JobAttempt, type JobRunner } from '#server/modules/jobs/job-runner.ts';
import {
  conditionHolds,
  countPendingMails,
  findMail,
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

/** One mail to send (its row in mail_jobs holds the content). */
const mailSend = defineJob('mail.send', z.object({ mail: z.number().int() }));

type Logger = { warn(object: object, message: string): void; error(object: object, message: string): void };

/** The counters the queue feeds (server/lib/metrics.ts). */
type MailMetrics = { mailFailures: { inc(labels: { outcome: 'retry' | 'final' }): void } };

/**
 * The durable mail queue: a mail is a row first (its content and status, what the outbox shows),
 * enqueued in the same transaction as the change it tells of, and sent by the job runner's
 * `mail.send` queue (decision 036): retried with backoff, given up after `maxAttempts`.
 */
export class MailQueue {
  private sentCount = 0;

  constructor(
    private readonly db: Database,
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly jobs: JobRunner,
    private readonly metrics?: MailMetrics,
  ) {
    jobs.handle(mailSend, {
      maxAttempts,
      retryDelayMs,
      leaseMs,
      run: ({ mail }, attempt) => this.deliver(mail, attempt),
    });
  }

  /** Mails waiting to be sent (the job queue depth of /metrics). */
  pending(): Promise<number> {
    return countPendingMails(this.db);
  }

  /** Queues a mail; a rendered mail's site sender becomes its From, with MAIL_FROM's address when the site has none. */
  async enqueue(db: Executor, mail: NewMail & { sender?: MailSender }): Promise<number> {
    const { sender, ...rest } = mail;
    const from = sender ? formatSender(sender.name, sender.address ?? addressOf(this.from)) : rest.from;
    const now = this.clock.now();
    const id = await insertMail(db, { ...rest, ...(from ? { from } : {}) }, now);
    await mailSend.enqueue(db, `mail:${id}`, { mail: id }, { at: now, runAt: mail.runAt ?? now });
    return id;
  }

  /** Sends what is due now (a tick of the job runner's mail queue); returns how many were sent. */
  async processDue(): Promise<number> {
    const before = this.sentCount;
    await this.jobs.runDue([mailSend.name]);
    return this.sentCount - before;
  }

  /** One attempt at one mail; a failure is recorded on the mail and thrown, for the runner to retry. */
  private async deliver(id: number, attempt: JobAttempt): Promise<void> {
    const job = await findMail(this.db, id);
    if (job?.status !== 'pending') return;
    if (!(await conditionHolds(this.db, job.condition))) {
      await markMailSkipped(this.db, job.id);
      return;
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
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryAt = attempt.last
        ? null
        : new Date(this.clock.now().getTime() + retryDelayMs(attempt.attempt));
      // Logged with the mail's context and counted; given up (status failed) after maxAttempts.
      const context = {
        mailId: job.id,
        kind: job.kind,
        attempts: attempt.attempt,
        maxAttempts,
        error: message,
      };
      if (retryAt) this.log.warn({ ...context, retryAt }, 'mail delivery failed, will retry');
      else this.log.error(context, 'mail delivery failed for good');
      this.metrics?.mailFailures.inc({ outcome: retryAt ? 'retry' : 'final' });
      await markMailFailed(this.db, job.id, message, attempt.attempt, retryAt);
      throw new MailDeliveryError(message);
    }
    await markMailSent(this.db, job.id, attempt.attempt, this.clock.now());
    this.sentCount++;
  }

  /** Closes the transport; the runner (stopped with the app) holds the mails not sent yet. */
  stop(): void {
    this.transport.close();
  }
}

/** A delivery attempt failed (logged above with the mail's context); the runner retries it. */
class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
}
