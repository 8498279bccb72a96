import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import type { Database } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { outgoingUrlProblem, privateAddressError, publicOnlyLookup } from '#server/lib/public-address.ts';
import { defineJob, type JobAttempt, type JobRunner } from '#server/modules/jobs/job-runner.ts';
import * as repo from './tracking.repository.ts';

type Logger = { warn(object: object, message: string): void; error(object: object, message: string): void };

export const postbackMaxAttempts = 6;
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

/** One postback to deliver: the attribution event whose postback URL to call. */
export const postbackSend = defineJob('postbacks.send', z.object({ event: z.number().int() }));

/**
 * Delivers the postbacks of attribution_events through the job runner's `postbacks.send` queue: a
 * 2xx answer is sent; anything else is tried again later (postbackRetryDelayMs) and given up
 * (failed) after postbackMaxAttempts.
 */
export class PostbackQueue {
  private sentCount = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly send: PostbackSender,
    private readonly log: Logger,
    private readonly jobs: JobRunner,
  ) {
    jobs.handle(postbackSend, {
      maxAttempts: postbackMaxAttempts,
      retryDelayMs: postbackRetryDelayMs,
      // A postback times out after timeoutMs; the lease outlasts it.
      leaseMs: 60_000,
      run: ({ event }, attempt) => this.deliver(event, attempt),
    });
  }

  pending(): Promise<number> {
    return repo.countPendingPostbacks(this.db);
  }

  /** Delivers what is due now (a tick of the runner's postback queue); returns how many were sent. */
  async processDue(): Promise<number> {
    const before = this.sentCount;
    await this.jobs.runDue([postbackSend.name]);
    return this.sentCount - before;
  }

  private async deliver(eventId: number, attempt: JobAttempt): Promise<void> {
    const job = await repo.findAttributionEvent(this.db, eventId);
    if (!job?.postbackUrl || job.postbackStatus !== 'pending') return;
    let problem: string;
    try {
      const status = await this.send(job.postbackUrl);
      if (status >= 200 && status < 300) {
        await repo.markPostbackSent(this.db, job.id, attempt.attempt, this.clock.now());
        this.sentCount++;
        return;
      }
      problem = `HTTP ${status}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    const retryAt = attempt.last
      ? null
      : new Date(this.clock.now().getTime() + postbackRetryDelayMs(attempt.attempt));
    const context = { event: job.id, attempts: attempt.attempt, error: problem };
    if (retryAt) this.log.warn({ ...context, retryAt }, 'postback failed, will retry');
    else this.log.error(context, 'postback failed for good');
    await repo.markPostbackFailed(this.db, job.id, problem, attempt.attempt, retryAt);
    throw new PostbackFailedError(problem);
  }
}

/** A postback attempt failed (logged above with its event); the runner retries it. */
class PostbackFailedError extends Error {
  override name = 'PostbackFailedError';
}
