import type { Database, Executor } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import {
  claimDueMails,
  conditionHolds,
  insertMail,
  markMailFailed,
  markMailSent,
  markMailSkipped,
  type NewMail,
} from './mail.repository.ts';
import type { MailTransport } from './mail-transport.ts';

const leaseMs = 5 * 60_000;
const maxAttempts = 12;

/** 30 s, 1 min, 2 min … capped at 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

type Logger = { warn(object: object, message: string): void };

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
  ) {}

  async enqueue(db: Executor, mail: NewMail): Promise<number> {
    return insertMail(db, mail, this.clock.now());
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
            from: this.from,
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
          this.log.warn({ mailId: job.id, attempts: job.attempts, error: message }, 'mail delivery failed');
          const retryAt =
            job.attempts >= maxAttempts
              ? null
              : new Date(this.clock.now().getTime() + retryDelayMs(job.attempts));
          await markMailFailed(this.db, job.id, message, retryAt);
        }
      }
    }
  }

  start(intervalMs = 2000): void {
    this.timer ??= setInterval(() => void this.processDue().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
    this.transport.close();
  }
}
