import { randomUUID } from 'node:crypto';
import type { UserRow } from '#server/db/schema/members.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import type { SessionProfile } from '#server/modules/profiles/profiles.service.ts';

/** Every instance listens here: a member's cached sessions are dropped at once, everywhere. */
export const sessionsChangedChannel = 'sessions.changed';

/** Tells every instance (this one at once) that a member's row or sessions changed. */
export async function announceSessionsChanged(bus: EventBus, userId: number): Promise<void> {
  await bus.publish(sessionsChangedChannel, { userId });
}

/**
 * A member's balance changed by their own spend (a message): every instance puts it into the cached
 * row in place instead of dropping it, so the sender's next request needs no lookup (decision 028: a
 * send used to drop the sender's session and the next request read it again, ~200 lookups a second
 * at 200 sends a second, and the refilled rows lived just long enough to fill the old space).
 */
export async function announceCreditsChanged(
  bus: EventBus,
  change: { userId: number; credits: number; origin: string },
): Promise<void> {
  await bus.publish(sessionsChangedChannel, change);
}

type Entry = { user: UserRow; own: SessionProfile; expiresAt: number };

/**
 * Session → member for a few seconds per process (docs/decisions/014), so the hot calls skip the session
 * lookup. Dropped for a member over the event bus (Redis pub/sub across instances, in-process
 * otherwise) on logout, ban, deletion, password and e-mail change and after any of the member's
 * own writes; what changes without an announcement (e.g. a staff edit of a profile) shows within
 * the TTL. Money and limits never trust it: they lock the member's row. See decision 014.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly tokensOf = new Map<number, Set<string>>();
  /** Raised by every drop and update: a lookup that started before it must not fill the cache after it. */
  private generation = 0;
  /** Tells this process's own announcements (back over Redis) from other instances'. */
  readonly origin = randomUUID();

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 50_000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Taken before a lookup, handed to `set` after it. */
  mark(): number {
    return this.generation;
  }

  get(token: string): Entry | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry;
    this.forget(token, entry.user.id);
    return undefined;
  }

  set(token: string, user: UserRow, own: SessionProfile, mark: number): void {
    if (!this.enabled || mark !== this.generation) return;
    const now = this.now();
    this.dropExpiredOldest(now);
    if (this.entries.size >= this.maxEntries) this.prune();
    // Deleted first so the Map stays in order of expiry (every entry lives the same TTL).
    this.entries.delete(token);
    this.entries.set(token, { user, own, expiresAt: now + this.ttlMs });
    let tokens = this.tokensOf.get(user.id);
    if (!tokens) {
      tokens = new Set();
      this.tokensOf.set(user.id, tokens);
    }
    tokens.add(token);
  }

  dropUser(userId: number): void {
    this.generation++;
    for (const token of this.tokensOf.get(userId) ?? []) this.entries.delete(token);
    this.tokensOf.delete(userId);
  }

  /**
   * The member's cached rows get a new balance, in new objects (a request in flight keeps the row it
   * read). What else the row holds did not change: only a spend of the member's own calls this.
   */
  updateCredits(userId: number, credits: number): void {
    this.generation++;
    for (const token of this.tokensOf.get(userId) ?? []) {
      const entry = this.entries.get(token);
      if (entry && entry.user.credits !== credits)
        this.entries.set(token, { ...entry, user: { ...entry.user, credits } });
    }
  }

  /**
   * Follows the announcements of every instance; returns the unsubscribe. A drop is applied even when
   * it is this process's own (some callers only announce); a balance of its own was applied already,
   * and its echo may come after a newer one.
   */
  listen(bus: EventBus): () => void {
    return bus.subscribe(sessionsChangedChannel, (payload) => {
      if (typeof payload !== 'object' || payload === null) return;
      const change: { userId?: unknown; credits?: unknown; origin?: unknown } = payload;
      if (typeof change.userId !== 'number') return;
      if (typeof change.credits !== 'number') this.dropUser(change.userId);
      else if (change.origin !== this.origin) this.updateCredits(change.userId, change.credits);
    });
  }

  get size(): number {
    return this.entries.size;
  }

  private forget(token: string, userId: number): void {
    this.entries.delete(token);
    const tokens = this.tokensOf.get(userId);
    tokens?.delete(token);
    if (tokens?.size === 0) this.tokensOf.delete(userId);
  }

  /**
   * Expired entries leave as new ones come, oldest first, so the cache holds the last TTL's
   * sessions, not every session seen since the start (10,000 sockets opening left 10,000 members'
   * rows in memory until the cache filled).
   */
  private dropExpiredOldest(now: number): void {
    for (const [token, entry] of this.entries) {
      if (entry.expiresAt > now) return;
      this.forget(token, entry.user.id);
    }
  }

  private prune(): void {
    const now = this.now();
    for (const [token, entry] of this.entries) if (entry.expiresAt <= now) this.forget(token, entry.user.id);
    // Still full: the oldest half goes (a Map iterates in insertion order).
    if (this.entries.size >= this.maxEntries) {
      let drop = Math.floor(this.entries.size / 2);
      for (const [token, entry] of this.entries) {
        if (drop-- <= 0) break;
        this.forget(token, entry.user.id);
      }
    }
  }
}
