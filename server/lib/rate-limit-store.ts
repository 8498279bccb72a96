import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/** One counter per key and window: INCR, the window starts with the first hit. */
const incrScript = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

/** How long a rate-limited request waits for Redis before it is counted in this instance instead. */
export const redisAnswerTimeoutMs = 500;
/** Keys the in-process fallback keeps at most (oldest dropped first). */
const fallbackCapacity = 10_000;
/** At most one warning per this many milliseconds while Redis stays away. */
const warnEveryMs = 60_000;

type Shared = {
  redis: Redis;
  log: FastifyBaseLogger;
  local: Map<string, { current: number; resetAt: number }>;
  lastWarning: number;
};

/**
 * Rate limits shared by every instance through Redis, failing over to counting in this instance
 * while Redis does not answer (down, refusing, or slower than {@link redisAnswerTimeoutMs}).
 *
 * Decision (docs/security/fuzzing.md, "Redis down"): limits never fail open and never answer 500.
 * Each instance keeps enforcing every limit on its own, so a member may get up to
 * `max × instances` calls in a window during an outage; a warning is logged once a minute.
 */
export function failoverRateLimitStore(
  redis: Redis,
  log: FastifyBaseLogger,
  nameSpace: string,
): FastifyRateLimitStoreCtor {
  const shared: Shared = { redis, log, local: new Map(), lastWarning: Number.NEGATIVE_INFINITY };
  // A client without an error listener prints every failed reconnect; the throttled warning says it once.
  redis.on('error', (error: unknown) => warnUnavailable(shared, error));
  return class {
    constructor() {
      // biome-ignore lint/correctness/noConstructorReturn: the plugin calls `new Store(options)`
      return new FailoverStore(shared, nameSpace);
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

class FailoverStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: Shared,
    private readonly prefix: string,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number): void {
    const fullKey = this.prefix + key;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const fallback = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.warn(error);
      callback(null, this.countLocally(fullKey, timeWindow));
    };
    // While the connection is down, ioredis would queue the command for seconds: count here at once.
    if (this.shared.redis.status !== 'ready') {
      fallback(new Error(`Redis connection is ${this.shared.redis.status}`));
      return;
    }
    timer = setTimeout(() => fallback(new Error('Redis did not answer in time')), redisAnswerTimeoutMs);
    this.shared.redis.eval(incrScript, 1, fullKey, timeWindow).then(
      (answer) => {
        if (settled) return;
        const [current, ttl] = Array.isArray(answer) ? answer : [];
        if (typeof current !== 'number' || typeof ttl !== 'number') {
          fallback(new Error('Redis answered something other than [current, ttl]'));
          return;
        }
        settled = true;
        clearTimeout(timer);
        callback(null, { current, ttl });
      },
      (error: unknown) => fallback(error),
    );
  }

  /** A route's own counters, keyed as the plugin's Redis store keys them (method and URL). */
  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    // The plugin hands in its merged options, with the route under `routeInfo`.
    const route: { method?: unknown; url?: unknown } =
      'routeInfo' in routeOptions && typeof routeOptions.routeInfo === 'object' && routeOptions.routeInfo
        ? routeOptions.routeInfo
        : routeOptions;
    return new FailoverStore(this.shared, `${this.prefix}${String(route.method)}${String(route.url)}-`);
  }

  private countLocally(key: string, timeWindow: number): Counted {
    const now = Date.now();
    const local = this.shared.local;
    let entry = local.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { current: 0, resetAt: now + timeWindow };
      local.delete(key);
      if (local.size >= fallbackCapacity) {
        const oldest = local.keys().next().value;
        if (oldest !== undefined) local.delete(oldest);
      }
      local.set(key, entry);
    }
    entry.current++;
    return { current: entry.current, ttl: entry.resetAt - now };
  }

  private warn(error: unknown): void {
    warnUnavailable(this.shared, error);
  }
}

function warnUnavailable(shared: Shared, error: unknown): void {
  const now = Date.now();
  if (now - shared.lastWarning < warnEveryMs) return;
  shared.lastWarning = now;
  shared.log.warn(
    { err: { type: error instanceof Error ? error.name : typeof error, message: String(error) } },
    'rate limits: Redis does not answer, counting in this instance until it does',
  );
}
