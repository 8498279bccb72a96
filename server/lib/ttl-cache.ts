/**
 * The one in-process cache of the app (decision 038): an entry lives `ttlMs` (0: the cache is off
 * and keeps nothing); past `maxEntries` or `maxBytes` the oldest go first; an entry can carry a group
 * (a member's sessions, a member's lists) to be dropped together. Every drop raises a generation: a
 * value read from the database before a drop is not stored after it (`mark` before the read, hand it
 * to `set`), so a slow read can never bring back what a write just dropped.
 *
 * Every entry lives the same time, so the map's insertion order is the order of expiry: expired
 * entries leave from the front as new ones come, and the cache holds the last TTL's entries, not all
 * it saw until it filled (10,000 sockets opening once left 10,000 members' rows in memory).
 */
type Entry<V> = { value: V; expiresAt: number; bytes: number; group: string | number | undefined };

export type CacheLimits<V> =
  | { maxEntries: number }
  | { maxBytes: number; maxEntryBytes: number; sizeOf: (value: V, key: string) => number };

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly groups = new Map<string | number, Set<string>>();
  private generation = 0;
  private bytes = 0;

  constructor(
    readonly ttlMs: number,
    private readonly limits: CacheLimits<V>,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Taken before a read whose result may be stored; handed to `set` after it. */
  mark(): number {
    return this.generation;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.value;
    this.forget(key);
    return undefined;
  }

  /** Stores unless a drop happened since `mark` (when given); `group` lets `dropGroup` find it. */
  set(key: string, value: V, options: { group?: string | number; mark?: number } = {}): void {
    if (!this.enabled) return;
    if (options.mark !== undefined && options.mark !== this.generation) return;
    const bytes = 'sizeOf' in this.limits ? this.limits.sizeOf(value, key) : 0;
    if ('maxEntryBytes' in this.limits && bytes > this.limits.maxEntryBytes) return;
    const now = this.now();
    // Deleted first, so the map stays in order of expiry.
    this.forget(key);
    this.dropExpired(now);
    this.makeRoom(bytes);
    this.entries.set(key, { value, expiresAt: now + this.ttlMs, bytes, group: options.group });
    this.bytes += bytes;
    if (options.group === undefined) return;
    let keys = this.groups.get(options.group);
    if (!keys) {
      keys = new Set();
      this.groups.set(options.group, keys);
    }
    keys.add(key);
  }

  delete(key: string): void {
    this.generation++;
    this.forget(key);
  }

  /** Drops every entry of the group. */
  dropGroup(group: string | number): void {
    this.generation++;
    for (const key of [...(this.groups.get(group) ?? [])]) this.forget(key);
  }

  /** Replaces the values of a group's entries in place (their expiry stays); a drop for reads before it. */
  updateGroup(group: string | number, update: (value: V) => V): void {
    this.generation++;
    for (const key of this.groups.get(group) ?? []) {
      const entry = this.entries.get(key);
      if (entry) this.entries.set(key, { ...entry, value: update(entry.value) });
    }
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.groups.clear();
    this.bytes = 0;
  }

  /** Entries kept, or with `maxBytes` their bytes. */
  get size(): number {
    return 'maxBytes' in this.limits ? this.bytes : this.entries.size;
  }

  private dropExpired(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) return;
      this.forget(key);
    }
  }

  /** The oldest entries go until one more entry of `bytes` fits. */
  private makeRoom(bytes: number): void {
    const full = () =>
      'maxEntries' in this.limits
        ? this.entries.size >= this.limits.maxEntries
        : this.bytes + bytes > this.limits.maxBytes;
    for (const key of this.entries.keys()) {
      if (!full()) return;
      this.forget(key);
    }
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    if (entry.group === undefined) return;
    const keys = this.groups.get(entry.group);
    keys?.delete(key);
    if (keys?.size === 0) this.groups.delete(entry.group);
  }
}
