import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { EventBus } from '#server/lib/event-bus.ts';
import { TtlCache } from '#server/lib/ttl-cache.ts';
import { connectPostgres, type Database, type DatabaseHandle, type PoolerMode } from './client.ts';

/**
 * Where reads go when read replicas are configured (decision 056). Repositories stay the only SQL
 * writers and know nothing of replicas: a service asks `for(memberId)` for the database handle of a
 * read and passes it to the repository function as it passed the primary before.
 *
 * - A replica serves reads only while its last check found it in recovery (a standby), answering,
 *   and behind the primary by at most `maxLagMs`; otherwise the primary serves them.
 * - A member who wrote within `stickyMs` reads from the primary (read-your-writes): every
 *   instance is told over the bus, and each keeps the marks in the one cache (decision 038).
 * - Without replicas `for` is the primary, and nothing is checked or marked.
 */

/** One replica: its handle and its connection's end. */
export type ReplicaEndpoint = {
  /** For logs and the status: the URL without its password. */
  name: string;
  db: Database;
  close(): Promise<void>;
};

export type ReplicaStatus = {
  name: string;
  state: 'ok' | 'lagging' | 'down' | 'unchecked';
  /** Replay lag the last check measured; null when it could not be measured. */
  lagMs: number | null;
  /** Why the replica is not used, when it is not. */
  reason: string | null;
};

export type ReadRouterOptions = {
  /** A replica further behind than this serves no reads. */
  maxLagMs: number;
  /** How long a member's reads go to the primary after they wrote. */
  stickyMs: number;
  now?: () => number;
  /** Tells every instance that a member wrote (the bus); absent: this process only. */
  broadcast?: (memberId: number) => Promise<void>;
  /** A check that failed: logged and counted by the caller. */
  onCheckFailed?: (replica: string, error: unknown) => void;
};

type ReplicaState = ReplicaEndpoint & { status: ReplicaStatus };

/** A WAL position `X/Y` as one number (both halves are 32-bit hex). */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  if (high === undefined || low === undefined) throw new Error(`not an LSN: ${lsn}`);
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** How far a standby's replay is behind what it received, as PostgreSQL's monitoring docs measure it. */
const standbyProbe = sql`select pg_is_in_recovery() as recovery,
  pg_last_wal_replay_lsn()::text as replayed,
  case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
       else extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000 end as lag_ms`;

const probeRows = z.object({
  rows: z.array(
    z.object({
      recovery: z.boolean(),
      replayed: z.string().nullable(),
      lag_ms: z.union([z.string(), z.number()]).nullable(),
    }),
  ),
});
type ProbeRow = z.infer<typeof probeRows>['rows'][number];
const lsnRows = z.object({ rows: z.array(z.object({ lsn: z.string() })) });

export class ReadRouter {
  private readonly replicas: ReplicaState[];
  private readonly wrote: TtlCache<true>;
  private readonly now: () => number;
  /** The primary's WAL position at each check: a standby that stopped receiving shows no replay lag. */
  private primarySamples: { at: number; lsn: bigint }[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    readonly primary: Database,
    replicas: ReplicaEndpoint[],
    private readonly options: ReadRouterOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.replicas = replicas.map((replica) => ({
      ...replica,
      status: { name: replica.name, state: 'unchecked', lagMs: null, reason: 'not checked yet' },
    }));
    this.wrote = new TtlCache<true>(
      replicas.length > 0 ? options.stickyMs : 0,
      { maxEntries: 200_000 },
      this.now,
    );
  }

  get hasReplicas(): boolean {
    return this.replicas.length > 0;
  }

  /**
   * The handle for a read of this member (null: a visitor, or a read that concerns no one's own
   * writes): a healthy replica in turn, or the primary when the member wrote lately or no replica is
   * healthy.
   */
  for(memberId: number | null | undefined): Database {
    if (this.replicas.length === 0) return this.primary;
    if (memberId !== null && memberId !== undefined && this.wrote.get(String(memberId))) return this.primary;
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const replica = this.replicas[this.next++ % this.replicas.length];
      if (replica?.status.state === 'ok') return replica.db;
    }
    return this.primary;
  }

  /** A member wrote: their reads go to the primary for `stickyMs`, on every instance. */
  async memberWrote(memberId: number): Promise<void> {
    if (this.replicas.length === 0) return;
    this.markWrote(memberId);
    await this.options.broadcast?.(memberId);
  }

  /** Another instance said a member wrote (the bus). */
  markWrote(memberId: number): void {
    this.wrote.set(String(memberId), true);
  }

  statuses(): ReplicaStatus[] {
    return this.replicas.map((replica) => ({ ...replica.status }));
  }

  /** Checks every replica once: in recovery, answering, lag within `maxLagMs`. */
  async check(): Promise<ReplicaStatus[]> {
    if (this.replicas.length === 0) return [];
    const at = this.now();
    const primaryLsn = await this.primaryLsn();
    if (primaryLsn !== null) {
      this.primarySamples.push({ at, lsn: primaryLsn });
      // Kept: the newest sample at least maxLagMs old, and everything after it.
      const cut = this.primarySamples.findLastIndex((sample) => sample.at <= at - this.options.maxLagMs);
      if (cut > 0) this.primarySamples = this.primarySamples.slice(cut);
    }
    const reference = this.primarySamples.findLast((sample) => sample.at <= at - this.options.maxLagMs);
    await Promise.all(this.replicas.map((replica) => this.checkOne(replica, reference?.lsn)));
    return this.statuses();
  }

  /** Checks every `intervalMs` until `stop`; the first check runs now. */
  start(intervalMs: number): Promise<ReplicaStatus[]> {
    if (this.replicas.length === 0 || this.timer) return Promise.resolve(this.statuses());
    this.timer = setInterval(() => {
      void this.check();
    }, intervalMs);
    this.timer.unref();
    return this.check();
  }

  /** Runs at `stop` (the bus subscription's end). */
  onStop(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    await Promise.all(this.replicas.map((replica) => replica.close()));
  }

  private async primaryLsn(): Promise<bigint | null> {
    try {
      const { rows } = lsnRows.parse(
        await this.primary.execute(sql`select pg_current_wal_lsn()::text as lsn`),
      );
      return rows[0] ? lsnValue(rows[0].lsn) : null;
    } catch (error) {
      this.options.onCheckFailed?.('primary', error);
      return null;
    }
  }

  private async checkOne(replica: ReplicaState, primaryLsnThen: bigint | undefined): Promise<void> {
    const set = (state: ReplicaStatus['state'], lagMs: number | null, reason: string | null) => {
      replica.status = { name: replica.name, state, lagMs, reason };
    };
    let row: ProbeRow | undefined;
    try {
      ({
        rows: [row],
      } = probeRows.parse(await replica.db.execute(standbyProbe)));
    } catch (error) {
      this.options.onCheckFailed?.(replica.name, error);
      return set('down', null, error instanceof Error ? error.message : String(error));
    }
    if (!row?.recovery) return set('down', null, 'not a standby (pg_is_in_recovery() is false)');
    const lagMs = row.lag_ms === null ? null : Math.max(0, Number(row.lag_ms));
    if (lagMs === null) return set('lagging', null, 'nothing replayed yet while WAL is waiting');
    if (lagMs > this.options.maxLagMs) return set('lagging', lagMs, `replay ${Math.round(lagMs)} ms behind`);
    if (primaryLsnThen !== undefined && row.replayed !== null && lsnValue(row.replayed) < primaryLsnThen) {
      return set('lagging', lagMs, `has not replayed what the primary had ${this.options.maxLagMs} ms ago`);
    }
    set('ok', lagMs, null);
  }
}

/** The bus channel on which an instance tells the others that a member wrote. */
export const memberWroteChannel = 'replica.member-wrote';

/** A URL without its password, for logs and the status. */
function nameOf(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

export type ReplicaConnectOptions = ReadRouterOptions & {
  poolSize: number;
  pooler: PoolerMode;
  bus?: EventBus;
};

/**
 * The router over the primary and a pool for each replica URL; with a bus, member writes are told to
 * every instance. `stop` unsubscribes and closes the replicas' pools (not the primary's).
 */
export async function connectReadRouter(
  primary: DatabaseHandle,
  urls: string[],
  options: ReplicaConnectOptions,
): Promise<ReadRouter> {
  if (urls.length > 0 && primary.kind !== 'postgres') {
    throw new Error(
      'DATABASE_REPLICA_URL needs DATABASE_URL (PostgreSQL): the embedded database has no replicas',
    );
  }
  const replicas = await Promise.all(
    urls.map(async (url) => {
      const handle = await connectPostgres(url, options.poolSize, { pooler: options.pooler });
      return { name: nameOf(url), db: handle.db, close: handle.close };
    }),
  );
  const { bus } = options;
  const router = new ReadRouter(primary.db, replicas, {
    ...options,
    ...(bus && { broadcast: (memberId: number) => bus.publish(memberWroteChannel, { memberId }) }),
  });
  if (bus && replicas.length > 0) {
    const unsubscribe = bus.subscribe(memberWroteChannel, (payload) => {
      const memberId = memberWrotePayload.safeParse(payload);
      if (memberId.success) router.markWrote(memberId.data.memberId);
    });
    router.onStop(unsubscribe);
  }
  return router;
}

const memberWrotePayload = z.object({ memberId: z.number().int() });
