import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

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

/** Redis pub/sub: a message published on any instance reaches the subscribers of every instance. */
export async function createRedisBus(url: string, prefix: string): Promise<EventBus> {
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const counts = new Map<string, number>();
  let closed = false;

  subscriber.on('message', (fullChannel: string, message: string) => {
    if (!fullChannel.startsWith(prefix)) return;
    let payload: unknown;
    try {
      payload = JSON.parse(message);
    } catch {
      return;
    }
    local.emit(fullChannel.slice(prefix.length), payload);
  });

  return {
    async publish(channel, payload) {
      await publisher.publish(prefix + channel, JSON.stringify(payload));
    },
    subscribe(channel, handler) {
      local.on(channel, handler);
      const count = (counts.get(channel) ?? 0) + 1;
      counts.set(channel, count);
      if (count === 1 && !closed) subscriber.subscribe(prefix + channel).catch(() => undefined);
      return () => {
        local.off(channel, handler);
        const left = (counts.get(channel) ?? 1) - 1;
        counts.set(channel, left);
        if (left === 0 && !closed) subscriber.unsubscribe(prefix + channel).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      local.removeAllListeners();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
