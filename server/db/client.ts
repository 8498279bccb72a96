import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { projectRoot } from '#server/lib/project-root.ts';
import { createPglite } from './pglite.ts';
import type { PgliteThread } from './pglite-thread.ts';
import { type PreparedFolder, prepareDataFolder, type SnapshotOptions, writeSnapshot } from './snapshot.ts';

/**
 * The one database type the services and repositories see, whichever driver runs underneath. Without
 * a schema: the app writes every query with the query builder or SQL, never Drizzle's relational
 * `db.query`, and with a schema every transaction built a relational query builder for each table
 * (~12 KB of garbage a transaction).
 */
export type Database = PgDatabase<PgQueryResultHKT>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** A repository function accepts the database or an open transaction. */
export type Executor = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** How an embedded database started from a snapshot (server/db/snapshot.ts); absent otherwise. */
  snapshot?: SnapshotStart;
};

/**
 * `restored`: a fresh data folder was loaded from the snapshot made at `seededAt` (migrations and the
 * demo are in place). `missing`: a fresh folder and no snapshot for its key: after migrating and
 * seeding, `save()` keeps the result for the next fresh start.
 */
export type SnapshotStart =
  | { kind: 'restored'; seededAt: Date }
  | { kind: 'missing'; save(seededAt: Date): Promise<void> };

/**
 * One optional observer of every SQL statement the app's Drizzle clients run (the query-budget
 * tests count statements per request with it); a no-op call otherwise.
 */
type StatementObserver = (query: string, params: unknown[]) => void;
let statementObserver: StatementObserver | null = null;
export function observeStatements(observer: StatementObserver | null): void {
  statementObserver = observer;
}
const logger = { logQuery: (query: string, params: unknown[]) => statementObserver?.(query, params) };

export const migrationsFolder = path.join(projectRoot, 'server', 'db', 'migrations');

/** Serializes migrations of several instances that start at once on one PostgreSQL. */
const MIGRATION_LOCK_ID = 72_410_001;

/**
 * Connects to PostgreSQL. Its driver loads here, not with the module: an embedded start never
 * needs it (~50 ms of a start).
 */
export async function connectPostgres(connectionString: string, poolSize = 10): Promise<DatabaseHandle> {
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  // Connections stay open once made (pg-pool closed them after 10 s idle): a new one costs a backend
  // start, cold catalog caches and a parse of every prepared statement it runs, ~50 ms that the
  // requests of a busy moment waited behind (live delivery's slow bursts, decision 030).
  const pool = new pg.Pool({ connectionString, max: poolSize, idleTimeoutMillis: 0 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next checkout.
  });
  const db = drizzlePg(pool, { casing: 'snake_case', logger });
  return {
    db,
    kind: 'postgres',
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg(client, { casing: 'snake_case' }), { migrationsFolder });
      } finally {
        // A failed unlock would leave the lock with this connection, and the next instance's start
        // waiting on it: released with the error, the connection is closed and the lock goes with it.
        const unlocked = await client
          .query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID])
          .then(() => undefined)
          .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
        client.release(unlocked);
      }
    },
    close: () => pool.end(),
  };
}

export function wrapPglite(client: PGlite | PgliteThread): DatabaseHandle {
  // Drizzle's PGlite driver calls only query(text, params, {rowMode, parsers}) and transaction(fn)
  // on its client, which the thread answers as PGlite does (server/db/pglite-thread.ts).
  const driverClient = client as PGlite;
  const db = drizzlePglite(driverClient, { casing: 'snake_case', logger });
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await migratePglite(drizzlePglite(driverClient, { casing: 'snake_case' }), { migrationsFolder });
    },
    close: () => client.close(),
  };
}

/** The handle of an embedded database whose folder was readied by prepareDataFolder. */
export function embeddedHandle(client: PGlite | PgliteThread, prepared: PreparedFolder): DatabaseHandle {
  const handle = wrapPglite(client);
  if (prepared.kind === 'restored') {
    return { ...handle, snapshot: { kind: 'restored', seededAt: prepared.seededAt } };
  }
  if (prepared.kind === 'missing') {
    const save = (seededAt: Date) => writeSnapshot(client, prepared.dir, { key: prepared.key, seededAt });
    return { ...handle, snapshot: { kind: 'missing', save } };
  }
  return handle;
}

/**
 * Opens the embedded database in `dataDir`, in this thread (tests, tools). An existing folder opens
 * as it is; a fresh one starts from the snapshot of the current key when one exists (`snapshot`
 * options given). The server starts its own in a worker thread (server/db/embedded.ts).
 */
export async function openPglite(dataDir: string, snapshot?: SnapshotOptions): Promise<DatabaseHandle> {
  const prepared = prepareDataFolder(dataDir, snapshot);
  return embeddedHandle(await createPglite(dataDir), prepared);
}

/**
 * The connection an executor runs its statements on. A transaction's executor is a new object every
 * time, but on PostgreSQL it runs on one of the pool's few connections, which the pool hands out
 * again and again; the database itself (the pool, or the embedded one) is its own key.
 */
function connectionOf(executor: Executor): object {
  const session: unknown = executor._.session;
  if (typeof session === 'object' && session !== null && 'client' in session) {
    const client = session.client;
    if (typeof client === 'object' && client !== null) return client;
  }
  return executor;
}

/**
 * Prepared statements built once per connection (hot queries, decision 027): Drizzle builds the SQL text
 * once (building took ~0.3 ms of the main thread a query, more than PostgreSQL took to run the simple
 * ones) and the driver sends it as a named statement. A prepared statement is bound to the connection
 * it was built on, so the key is the connection and not the executor: a transaction reuses the
 * statements an earlier transaction built on the same pooled connection.
 */
export function preparedPerConnection<T>(build: (db: Executor) => T): (db: Executor) => T {
  const built = new WeakMap<object, T>();
  return (db) => {
    const connection = connectionOf(db);
    let statement = built.get(connection);
    if (statement === undefined) {
      statement = build(db);
      built.set(connection, statement);
    }
    return statement;
  };
}
