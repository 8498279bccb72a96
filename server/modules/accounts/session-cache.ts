import { randomUUID } from 'node:crypto';
import type { UserRow } from '#server/db/schema/members.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import { TtlCache } from '#server/lib/ttl-cache.ts';
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

type Entry = { user: UserRow; own: SessionProfile };

/**
 * Session → member for a few seconds per process (docs/decisions/014), so the hot calls skip the session
 * lookup. Dropped for a member over the event bus (Redis pub/sub across instances, in-process
 * otherwise) on logout, activation, ban, deletion, password and e-mail change and after any of the
 * member's own writes; what changes without an announcement (e.g. a staff edit of a profile) shows within
 * the TTL. Money and limits never trust it: they lock the member's row. See decision 014.
 */
export class SessionCache {
  private readonly entries: TtlCache<Entry>;
  /** Tells this process's own announcements (back over Redis) from other instances'. */
  readonly origin = randomUUID();

  constructor(
    readonly ttlMs: number,
    now: () => number = Date.now,
    maxEntries = 50_000,
  ) {
    this.entries = new TtlCache<Entry>(ttlMs, { maxEntries }, now);
  }

  get enabled(): boolean {
    return this.entries.enabled;
  }

  /** Taken before a lookup, handed to `set` after it. */
  mark(): number {
    return this.entries.mark();
  }

  get(token: string): Entry | undefined {
    return this.entries.get(token);
  }

  set(token: string, user: UserRow, own: SessionProfile, mark: number): void {
    this.entries.set(token, { user, own }, { group: user.id, mark });
  }

  dropUser(userId: number): void {
    this.entries.dropGroup(userId);
  }

  /**
   * The member's cached rows get a new balance, in new objects (a request in flight keeps the row it
   * read). What else the row holds did not change: only a spend of the member's own calls this.
   */
  updateCredits(userId: number, credits: number): void {
    this.entries.updateGroup(userId, (entry) =>
      entry.user.credits === credits ? entry : { ...entry, user: { ...entry.user, credits } },
    );
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
}
