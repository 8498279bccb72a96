import type { Database, Executor } from '#server/db/client.ts';
import { addMinutes, type Clock } from '#server/lib/clock.ts';
import { AccountLockedError } from './accounts.errors.ts';

export type LockoutPolicy = { maxFailures: number; windowMinutes: number; lockMinutes: number };

/** The counters of one address's sign-in tries (members' `login_throttles`, staff's own table). */
export type ThrottleState = {
  attempts: number;
  failures: number;
  windowStart: Date | null;
  lockedUntil: Date | null;
  lockLevel: number;
};

/** Where a throttle keeps its rows: each area's repository, so the SQL stays there. */
export type ThrottleStore<Key> = {
  /** Creates the row when missing and locks it for the transaction. */
  lock(db: Executor, key: Key, at: Date): Promise<ThrottleState>;
  update(db: Executor, key: Key, update: Partial<ThrottleState>): Promise<void>;
  remove(db: Executor, key: Key): Promise<void>;
};

/** Whole minutes from one moment to a later one, at least 1. */
function minutesBetween(from: Date, to: Date): number {
  return Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 60_000));
}

/**
 * The lock of an address, known or not. A try is counted under the row lock before the password is
 * checked, and refused unchecked while the address is locked or once the window's tries are used:
 * parallel requests get at most maxFailures checks per window, and an unknown address answers and
 * locks exactly as a known one (docs/decisions/009-limits-under-concurrency.md).
 */
export class LoginThrottle<Key> {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly policy: LockoutPolicy,
    private readonly store: ThrottleStore<Key>,
  ) {}

  /** Counts a try; throws AccountLockedError when it may not be checked. Returns its number in the window. */
  async countTry(key: Key): Promise<number> {
    const counted = await this.db.transaction(async (tx) => {
      const row = await this.store.lock(tx, key, this.clock.now());
      // The time is read once the row is ours: a parallel try that locked the address while this one
      // waited set its lock from a later moment, which would read as one minute more.
      const now = this.clock.now();
      if (row.lockedUntil && row.lockedUntil > now) {
        return { refusedFor: minutesBetween(now, row.lockedUntil), attempt: 0 };
      }
      const windowEnd = row.windowStart ? addMinutes(row.windowStart, this.policy.windowMinutes) : null;
      const open = windowEnd !== null && windowEnd > now;
      const attempt = (open ? row.attempts : 0) + 1;
      await this.store.update(tx, key, {
        attempts: attempt,
        ...(open ? {} : { failures: 0, windowStart: now }),
      });
      // Refused tries are counted too (and committed), so a good login in the same burst sees them.
      if (attempt > this.policy.maxFailures && windowEnd) {
        return { refusedFor: minutesBetween(now, windowEnd), attempt };
      }
      return { refusedFor: null, attempt };
    });
    if (counted.refusedFor !== null) throw new AccountLockedError(counted.refusedFor);
    return counted.attempt;
  }

  /** A wrong password or code: the maxFailures-th in a window locks, doubling each time. Returns the lock's minutes, or null. */
  async countFailure(key: Key): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      const row = await this.store.lock(tx, key, this.clock.now());
      const now = this.clock.now();
      if (row.lockedUntil && row.lockedUntil > now) return minutesBetween(now, row.lockedUntil);
      const failures = row.failures + 1;
      if (failures < this.policy.maxFailures) {
        await this.store.update(tx, key, { failures });
        return null;
      }
      const minutes = this.policy.lockMinutes * 2 ** row.lockLevel;
      await this.store.update(tx, key, {
        attempts: 0,
        failures: 0,
        windowStart: null,
        lockedUntil: addMinutes(now, minutes),
        lockLevel: row.lockLevel + 1,
      });
      return minutes;
    });
  }

  /** A try that was no failure (the first step of a two-step sign-in) is given back. */
  async giveBack(key: Key): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await this.store.lock(tx, key, this.clock.now());
      if (row.attempts > 0) await this.store.update(tx, key, { attempts: row.attempts - 1 });
    });
  }

  /**
   * A good password forgets the address's tries, unless tries came after it (a burst in parallel):
   * those keep their count, so a burst never gets more than maxFailures checks.
   */
  async succeeded(tx: Executor, key: Key, attempt: number): Promise<void> {
    const row = await this.store.lock(tx, key, this.clock.now());
    if (row.attempts === attempt) await this.store.remove(tx, key);
  }
}
