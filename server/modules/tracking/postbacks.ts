import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Database } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { loggableError } from '#server/lib/error-handler.ts';
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

/** Loopback, private, link-local, carrier-grade NAT, multicast and reserved ranges (IPv4 and IPv6). */
const privateRanges = (() => {
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ] as const)
    list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of [
    ['::', 127],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
    ['64:ff9b::', 96],
  ] as const)
    list.addSubnet(net, prefix, 'ipv6');
  return list;
})();

export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return privateRanges.check(address, 'ipv4');
  if (version !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return privateRanges.check(mapped[1], 'ipv4');
  return privateRanges.check(address, 'ipv6');
}

/**
 * Why a postback URL (template) may not be used, or null: http(s) only, no credentials, and — when
 * private addresses are not allowed (production) — no IP literal or local name of a private network.
 */
export function postbackUrlProblem(template: string, allowPrivate: boolean): string | null {
  const sample = template.replace(/\{(click_id|event|amount|currency)\}/g, 'x');
  if (/[{}\s]/.test(sample) || !URL.canParse(sample)) return 'invalid_url';
  const url = new URL(sample);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'invalid_url';
  if (url.username || url.password) return 'invalid_url';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) ? isPrivateAddress(host) : !host.includes('.') || /\.(localhost|local|internal)$/.test(host))
    return 'private_address';
  return null;
}

/** A DNS lookup that refuses private addresses: checked on the address the socket connects to. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const list = addresses.filter((entry) => !isPrivateAddress(entry.address));
    if (list.length === 0 || list.length !== addresses.length) {
      return callback(
        Object.assign(new Error('postback host resolves to a private address'), { code: 'EPRIVATE' }),
        '',
        0,
      );
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    const first = list[0]!;
    return callback(null, first.address, first.family);
  });
};

export type PostbackSender = (url: string) => Promise<number>;

/** A GET of the postback URL; the status code, or an error (timeout, refused address). */
export function httpPostbackSender(allowPrivate: boolean): PostbackSender {
  return (target) =>
    new Promise((resolve, reject) => {
      const url = new URL(target);
      if (
        !allowPrivate &&
        isIP(url.hostname.replace(/^\[|\]$/g, '')) &&
        isPrivateAddress(url.hostname.replace(/^\[|\]$/g, ''))
      ) {
        reject(new Error('postback host is a private address'));
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
    await this.running?.catch(() => undefined);
  }
}
