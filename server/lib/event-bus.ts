import { EventEmitter } from 'node:events';
import type { ReportCaught } from './best-effort.ts';
import { closeRedis } from './redis-close.ts';

export type BusHandler = (payload: unknown) => void;

/** Live events between the parts of one instance, and between instances when Redis is configured. */
export type EventBus = {
  publish(channel: string, payload: unknown): Promise<void>;
  subscribe(channel: string, handler: BusHandler): () => void;
  close(): Promise<void>;
};

export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, payload) {
      emitter.emit(channel, payload);
    },
    subscribe(channel, handler) {
      emitter.on(channel, handler);
      return () => emitter.off(channel, handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/**
 * Redis pub/sub: a message published on any instance reaches the subscribers of every instance.
 * Live events are best effort: while Redis does not answer, a publish reaches this instance's
 * subscribers only and logs a warning (at most once a minute); it never fails the request that
 * caused it (the message or like is already stored).
 */
export async function createRedisBus(
  url: string,
  prefix: string,
  log?: { warn(details: object, message: string): void },
  /** Counts failed subscribes (metrics). */
  onSubscribeFailure?: () => void,
  /** Logs and counts a message that is not JSON and a failed unsubscribe (deps.caught); else a warning. */
  reportCaught?: ReportCaught,
): Promise<EventBus> {
  const report: ReportCaught =
    reportCaught ??
    ((where, error) =>
      log?.warn(
        { where, err: { type: error instanceof Error ? error.name : typeof error, message: String(error) } },
        `${where} failed`,
      ));
  // The client loads with the first Redis bus: an embedded start never needs it.
  const { Redis } = await import('ioredis');
  // Auto-pipelining: the publishes issued in one tick (a send's four or five events) leave in one
  // write, in the order they were issued.
  const publisher = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableAutoPipelining: true,
  });
  const subscriber = new Redis(url, { lazyConnect: true });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const counts = new Map<string, number>();
  let closed = false;
  let lastWarning = Number.NEGATIVE_INFINITY;
  const warnUnavailable = (error: unknown) => {
    if (Date.now() - lastWarning < 60_000) return;
    lastWarning = Date.now();
    log?.warn(
      { err: { type: error instanceof Error ? error.name : typeof error, message: String(error) } },
      'event bus: Redis does not answer, live events reach this instance only',
    );
  };
  // Reconnects are ioredis' own; without a listener each failed one would be printed.
  publisher.on('error', warnUnavailable);
  subscriber.on('error', warnUnavailable);

  /** A failed subscribe is logged and retried with backoff while someone still listens: no socket stays deaf silently. */
  const subscribeWithRetry = (channel: string, attempt: number) => {
    subscriber.subscribe(prefix + channel).catch((error: unknown) => {
      onSubscribeFailure?.();
      const retryInMs = Math.min(30_000, 500 * 2 ** attempt);
      log?.warn(
        {
          channel,
          attempt,
          retryInMs,
          err: { type: error instanceof Error ? error.name : typeof error, message: String(error) },
        },
        'event bus: subscribe failed, retrying',
      );
      setTimeout(() => {
        if (!closed && (counts.get(channel) ?? 0) > 0) subscribeWithRetry(channel, attempt + 1);
      }, retryInMs).unref();
    });
  };

  subscriber.on('message', (fullChannel: string, message: string) => {
    if (!fullChannel.startsWith(prefix)) return;
    let payload: unknown;
    try {
      payload = JSON.parse(message);
    } catch (error) {
      // Not from an instance of this app (each publishes JSON): dropped, and reported.
      report('event-bus.message-not-json', error);
      return;
    }
    local.emit(fullChannel.slice(prefix.length), payload);
  });

  return {
    async publish(channel, payload) {
      // While the connection is down, ioredis would queue the command for seconds: deliver here at once.
      if (publisher.status !== 'ready') {
        warnUnavailable(new Error(`Redis connection is ${publisher.status}`));
        local.emit(channel, payload);
        return;
      }
      try {
        await publisher.publish(prefix + channel, JSON.stringify(payload));
      } catch (error) {
        warnUnavailable(error);
        local.emit(channel, payload);
      }
    },
    subscribe(channel, handler) {
      local.on(channel, handler);
      const count = (counts.get(channel) ?? 0) + 1;
      counts.set(channel, count);
      if (count === 1 && !closed) subscribeWithRetry(channel, 0);
      return () => {
        local.off(channel, handler);
        const left = (counts.get(channel) ?? 1) - 1;
        counts.set(channel, left);
        if (left === 0 && !closed)
          subscriber
            .unsubscribe(prefix + channel)
            .catch((error: unknown) => report('event-bus.unsubscribe', error));
      };
    },
    async close() {
      closed = true;
      local.removeAllListeners();
      await Promise.allSettled([closeRedis(publisher), closeRedis(subscriber)]);
    },
  };
}
