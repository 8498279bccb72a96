import type { Redis } from 'ioredis';
import type { Database } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { Clock } from '#server/lib/clock.ts';
import { setOnlineUntilMany } from './notifications.repository.ts';

/** A tab with a live connection keeps its member online this long between heartbeats. */
export const onlineGraceMs = 90_000;
/** The database's copy of a member's presence (users.online_until, the last seen) is written at most this often. */
export const presenceWriteEveryMs = 3 * 60_000;
/** How often the pending database copies are written, all in one statement. */
export const presenceFlushMs = 15_000;
/**
 * Members one statement of a flush writes at most. When 5,000 sockets opened at once, the next flush
 * wrote 5,000 member rows in one statement: it held them locked (a send locks its sender's row) and
 * wrote megabytes of WAL in one commit, and the sends of that moment waited behind it (the slow
 * rounds of the live-delivery benchmark). Small statements, one after the other, let the sends in between.
 */
export const presenceBatchSize = 200;
/**
 * The pause between two statements of one flush: the copies are background work, and 5,000 members
 * written back to back (after as many sockets closed at once, or opened) still took the database's
 * WAL and a core for a moment that every send's commit waited behind.
 */
export const presenceBatchPauseMs = 20;

/**
 * Where "online until" lives: Redis (shared by the instances; a key per member with a TTL, under
 * the deployment's key prefix) or, without Redis (one process), a map.
 */
export type PresenceStore = {
  set(userIds: readonly number[], until: Date): Promise<void>;
  clear(userId: number): Promise<void>;
  /** Null when the member has no live connection anywhere. */
  until(userId: number): Promise<Date | null>;
};

export function localPresenceStore(clock: Clock): PresenceStore {
  const online = new Map<number, number>();
  return {
    async set(userIds, until) {
      const now = clock.now().getTime();
      // Lapsed entries go when the map is written to: it never holds more than the members seen lately.
      if (online.size > 1_000) for (const [id, at] of online) if (at <= now) online.delete(id);
      for (const id of userIds) online.set(id, until.getTime());
    },
    async clear(userId) {
      online.delete(userId);
    },
    async until(userId) {
      const at = online.get(userId);
      return at === undefined ? null : new Date(at);
    },
  };
}

const presenceKey = (userId: number) => `presence:${userId}`;

/**
 * While the connection is down, ioredis queues a command until its reconnects run out (seconds, and
 * longer with every attempt): a send that asked whether its recipient is online waited 1.4–4.3 s.
 * Refused at once instead, the caller falls back (isOnline to the database's copy).
 */
function ready(redis: Redis): void {
  if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
}

/** `redis` carries the deployment's key prefix (REDIS_PREFIX). One round trip per batch. */
export function redisPresenceStore(redis: Redis): PresenceStore {
  return {
    async set(userIds, until) {
      if (userIds.length === 0) return;
      ready(redis);
      const pipeline = redis.pipeline();
      // The TTL only tidies up; the stored time decides (so the app's clock rules, also in tests).
      for (const id of userIds) pipeline.set(presenceKey(id), String(until.getTime()), 'PX', onlineGraceMs);
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error);
      if (failed?.[0]) throw failed[0];
    },
    async clear(userId) {
      ready(redis);
      await redis.del(presenceKey(userId));
    },
    async until(userId) {
      ready(redis);
      const value = await redis.get(presenceKey(userId));
      return value === null ? null : new Date(Number(value));
    },
  };
}

/**
 * Members' presence without write storms (decision 007): heartbeats go to the presence store
 * (Redis or memory) only; the database keeps a copy (`users.online_until`, also the last seen)
 * written at most once every few minutes per member, for many members in one statement. Nothing
 * here is awaited by message delivery.
 */
export class Presence {
  /** Members whose database copy is due, with the value to write. */
  private readonly pending = new Map<number, Date>();
  /** When each member's copy was last written (entries older than presenceWriteEveryMs are dropped). */
  private readonly writtenAt = new Map<number, number>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly store: PresenceStore,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Writes the due copies every presenceFlushMs (unref'd: it never keeps the process alive). */
  start(): void {
    this.timer ??= setInterval(() => {
      this.flush().catch(this.onError);
    }, presenceFlushMs);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch(this.onError);
  }

  /** Members with a live connection (on connect and from the heartbeat sweep, many at once). */
  async seen(userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    const now = this.clock.now().getTime();
    const until = new Date(now + onlineGraceMs);
    for (const id of userIds) {
      const written = this.writtenAt.get(id);
      if (written === undefined || now - written >= presenceWriteEveryMs) this.pending.set(id, until);
    }
    await this.store.set(userIds, until);
  }

  /** The member's last connection on this instance closed. */
  async left(userId: number): Promise<void> {
    const now = this.clock.now();
    this.pending.set(userId, now);
    await this.store.clear(userId);
  }

  /** Online now, per the store; while the store does not answer, per the database's copy. */
  async isOnline(user: Pick<UserRow, 'id' | 'onlineUntil'>): Promise<boolean> {
    const now = this.clock.now();
    try {
      const until = await this.store.until(user.id);
      return until !== null && until > now;
    } catch (error) {
      this.onError(error);
      return user.onlineUntil !== null && user.onlineUntil > now;
    }
  }

  /** Writes the due database copies, many members a statement; returns how many members it wrote. */
  async flush(): Promise<number> {
    if (this.pending.size === 0) return 0;
    // In order of id, so two instances' flushes lock shared rows in the same order.
    const batch = [...this.pending].sort(([a], [b]) => a - b);
    this.pending.clear();
    const now = this.clock.now().getTime();
    for (const [id, at] of this.writtenAt) if (now - at >= presenceWriteEveryMs) this.writtenAt.delete(id);
    for (const [id] of batch) this.writtenAt.set(id, now);
    for (let start = 0; start < batch.length; start += presenceBatchSize) {
      if (start > 0) await new Promise((resolve) => setTimeout(resolve, presenceBatchPauseMs));
      await setOnlineUntilMany(this.db, batch.slice(start, start + presenceBatchSize));
    }
    return batch.length;
  }
}
