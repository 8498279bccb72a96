import type { EventBus } from '#server/lib/event-bus.ts';
import { sessionsChangedChannel } from '#server/modules/accounts/session-cache.ts';

/** Every instance listens here: a member's cached conversation lists are dropped at once, everywhere. */
export const chatListChangedChannel = 'chat-list.changed';

type Entry = { body: string; expiresAt: number };

/**
 * The finished `GET /api/chats.php` answer per member (and site and language) for a few seconds
 * per process (decision 021): clients poll the list, and most polls find it unchanged. Dropped on every
 * instance over the event bus when the list changes (a message in, a read, a block, and any write of
 * the member's own); what changes without an announcement (a counterpart's new photo, a ban) shows
 * within the TTL. See docs/decisions/021.
 */
export class ChatListCache {
  private readonly entries = new Map<number, Map<string, Entry>>();
  /** Lists being read per member and key: parallel misses wait for the one read (single flight). */
  private readonly reading = new Map<number, Map<string, Promise<string>>>();
  private bytes = 0;
  /** Raised by every drop: a list built while a drop happened must not be kept. */
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
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
    return this.generation;
  }

  get(userId: number, key: string): string | undefined {
    const entry = this.entries.get(userId)?.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.body;
    this.forget(userId, key);
    return undefined;
  }

  set(userId: number, key: string, body: string, mark: number): void {
    if (!this.enabled || mark !== this.generation) return;
    // Strings are UTF-16 in memory: two bytes a character is the honest measure.
    const size = body.length * 2;
    if (size > this.maxBytes / 8) return;
    if (this.bytes + size > this.maxBytes) this.prune(size);
    let lists = this.entries.get(userId);
    if (!lists) {
      lists = new Map();
      this.entries.set(userId, lists);
    }
    this.forget(userId, key);
    lists.set(key, { body, expiresAt: this.now() + this.ttlMs });
    this.bytes += size;
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
    this.generation++;
    this.reading.delete(userId);
    const lists = this.entries.get(userId);
    if (!lists) return;
    for (const entry of lists.values()) this.bytes -= entry.body.length * 2;
    this.entries.delete(userId);
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
    return this.bytes;
  }

  private forget(userId: number, key: string): void {
    const lists = this.entries.get(userId);
    const entry = lists?.get(key);
    if (!lists || !entry) return;
    lists.delete(key);
    this.bytes -= entry.body.length * 2;
    if (lists.size === 0) this.entries.delete(userId);
  }

  /** Expired entries go, then the oldest members' lists until `room` fits. */
  private prune(room: number): void {
    const now = this.now();
    for (const [userId, lists] of this.entries)
      for (const [key, entry] of lists) if (entry.expiresAt <= now) this.forget(userId, key);
    for (const userId of this.entries.keys()) {
      if (this.bytes + room <= this.maxBytes) break;
      this.dropUser(userId);
    }
  }
}
