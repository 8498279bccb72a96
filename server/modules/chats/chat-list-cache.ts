import type { EventBus } from '#server/lib/event-bus.ts';
import { TtlCache } from '#server/lib/ttl-cache.ts';
import { sessionsChangedChannel } from '#server/modules/accounts/session-cache.ts';

/** Every instance listens here: a member's cached conversation lists are dropped at once, everywhere. */
export const chatListChangedChannel = 'chat-list.changed';

/**
 * The finished `GET /api/chats.php` answer per member (and site and language) for a few seconds
 * per process (decision 021): clients poll the list, and most polls find it unchanged. Dropped on every
 * instance over the event bus when the list changes (a message in, a read, a block, and any write of
 * the member's own); what changes without an announcement (a counterpart's new photo, a ban) shows
 * within the TTL. See docs/decisions/021.
 */
export class ChatListCache {
  /** The lists by member and key, grouped by member (a drop forgets all of a member's lists). */
  private readonly entries: TtlCache<{ body: string }>;
  /** Lists being read per member and key: parallel misses wait for the one read (single flight). */
  private readonly reading = new Map<number, Map<string, Promise<string>>>();

  constructor(
    readonly ttlMs: number,
    maxBytes = 64 * 1024 * 1024,
    now: () => number = Date.now,
  ) {
    this.entries = new TtlCache(
      ttlMs,
      { maxBytes, maxEntryBytes: maxBytes / 8, sizeOf: ({ body }) => body.length * 2 },
      now,
    );
  }

  get enabled(): boolean {
    return this.entries.enabled;
  }

  /**
   * The cached list, or the one `read` makes: parallel requests that miss share one read, so a
   * member's open tabs (or a list whose TTL just ended under load) start one query, not one each.
   * A drop during the read forgets it: a request after the drop reads again.
   */
  async getOrRead(userId: number, key: string, read: () => Promise<string>): Promise<string> {
    const cached = this.get(userId, key);
    if (cached !== undefined) return cached;
    const pending = this.reading.get(userId)?.get(key);
    if (pending) return pending;
    const mark = this.mark();
    const promise = read().then(
      (body) => {
        this.stopReading(userId, key, promise);
        this.set(userId, key, body, mark);
        return body;
      },
      (error: unknown) => {
        this.stopReading(userId, key, promise);
        throw error;
      },
    );
    if (this.enabled) {
      let byKey = this.reading.get(userId);
      if (!byKey) {
        byKey = new Map();
        this.reading.set(userId, byKey);
      }
      byKey.set(key, promise);
    }
    return promise;
  }

  private stopReading(userId: number, key: string, promise: Promise<string>): void {
    const byKey = this.reading.get(userId);
    if (byKey?.get(key) !== promise) return;
    byKey.delete(key);
    if (byKey.size === 0) this.reading.delete(userId);
  }

  /** Taken before the list is read, handed to `set` after it. */
  mark(): number {
    return this.entries.mark();
  }

  get(userId: number, key: string): string | undefined {
    return this.entries.get(`${userId}\n${key}`)?.body;
  }

  /** Strings are UTF-16 in memory: two bytes a character is the honest measure of a list. */
  set(userId: number, key: string, body: string, mark: number): void {
    this.entries.set(`${userId}\n${key}`, { body }, { group: userId, mark });
  }

  /**
   * A member's conversation list changed without a request of their own (a message arrived, they
   * read a conversation, someone blocked them): dropped here at once, then on every other instance.
   * (Their own writes drop it through the session hook and `sessions.changed`.)
   */
  async changed(bus: EventBus, userId: number): Promise<void> {
    this.dropUser(userId);
    await bus.publish(chatListChangedChannel, { userId });
  }

  dropUser(userId: number): void {
    this.reading.delete(userId);
    this.entries.dropGroup(userId);
  }

  /** Follows the announcements of every instance (list changes and the member's own writes). */
  listen(bus: EventBus): () => void {
    const drop = (payload: unknown) => {
      const userId = (payload as { userId?: unknown } | null)?.userId;
      if (typeof userId === 'number') this.dropUser(userId);
    };
    const stops = [bus.subscribe(chatListChangedChannel, drop), bus.subscribe(sessionsChangedChannel, drop)];
    return () => {
      for (const stop of stops) stop();
    };
  }

  /** Bytes held (UTF-16). */
  get size(): number {
    return this.entries.size;
  }
}
