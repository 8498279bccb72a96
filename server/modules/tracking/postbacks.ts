import http from 'node:http';
import https from 'node:https';
import type { Database } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { loggableError } from '#server/lib/error-handler.ts';
import { outgoingUrlProblem, privateAddressError, publicOnlyLookup } from '#server/lib/public-address.ts';
import * as repo from './tracking.repository.ts';

type Logger = { warn(object: object, message: string): void; error(object: object, message: string): void };

export const postbackMaxAttempts = 6;
const leaseMs = 60_000;
const timeoutMs = 10_000;

/** 1 min, 5 min, 30 min, 2 h, 12 h between the tries. */
export function postbackRetryDelayMs(attempts: number): number {
  const minutes = [1, 5, 30, 120, 720];
  return (minutes[Math.min(attempts, minutes.length) - 1] ?? 720) * 60_000;
}

/**
 * Why a postback URL (template) may not be used, or null: http(s) only, no credentials, and — when
 * private addresses are not allowed (production) — no address or local name of a private network.
 */
export function postbackUrlProblem(template: string, allowPrivate: boolean): string | null {
  const sample = template.replace(/\{(click_id|event|amount|currency)\}/g, 'x');
  if (/[{}\s]/.test(sample)) return 'invalid_url';
  return outgoingUrlProblem(sample, { allowPrivate });
}

export type PostbackSender = (url: string) => Promise<number>;

/** A GET of the postback URL; the status code, or an error (timeout, refused address). */
export function httpPostbackSender(allowPrivate: boolean): PostbackSender {
  return (target) =>
    new Promise((resolve, reject) => {
      const url = new URL(target);
      const problem = outgoingUrlProblem(url, { allowPrivate });
      if (problem) {
        reject(
          problem === 'private_address'
            ? privateAddressError('postback host is a private address')
            : new Error('postback URL is not http(s)'),
        );
        return;
      }
      const client = url.protocol === 'https:' ? https : http;
      const request = client.get(
        url,
        {
          timeout: timeoutMs,
          headers: { 'user-agent': 'dating-platform-postback/1' },
          ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('timeout', () => request.destroy(new Error('postback timed out')));
      request.on('error', reject);
    });
}

/**
 * Delivers the pending postbacks of attribution_events: a 2xx answer is sent; anything else is tried
 * again later (postbackRetryDelayMs) and given up (failed) after postbackMaxAttempts.
 */
export class PostbackQueue {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly send: PostbackSender,
    private readonly log: Logger,
    private readonly onFailure: () => void = () => undefined,
  ) {}

  pending(): Promise<number> {
    return repo.countPendingPostbacks(this.db);
  }

  /** Delivers what is due; returns how many were sent. Overlapping calls share one run. */
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
      const batch = await repo.claimDuePostbacks(this.db, now, new Date(now.getTime() + leaseMs), 20);
      if (batch.length === 0) return sent;
      for (const job of batch) {
        if (!job.postbackUrl) continue;
        let problem: string;
        try {
          const status = await this.send(job.postbackUrl);
          if (status >= 200 && status < 300) {
            await repo.markPostbackSent(this.db, job.id, this.clock.now());
            sent++;
            continue;
          }
          problem = `HTTP ${status}`;
        } catch (error) {
          problem = error instanceof Error ? error.message : String(error);
        }
        const retryAt =
          job.postbackAttempts >= postbackMaxAttempts
            ? null
            : new Date(this.clock.now().getTime() + postbackRetryDelayMs(job.postbackAttempts));
        const context = { event: job.id, attempts: job.postbackAttempts, error: problem };
        if (retryAt) this.log.warn({ ...context, retryAt }, 'postback failed, will retry');
        else this.log.error(context, 'postback failed for good');
        this.onFailure();
        await repo.markPostbackFailed(this.db, job.id, problem, retryAt);
      }
    }
  }

  start(intervalMs = 5000): void {
    this.timer ??= setInterval(
      () =>
        void this.processDue().catch((error: unknown) => {
          this.onFailure();
          this.log.error({ err: loggableError(error) }, 'postback worker run failed');
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
  }
}
