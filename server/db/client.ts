import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PoolClient } from 'pg';
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
  /** PostgreSQL's connection pool, for its gauges on /metrics; absent on the embedded database. */
  pool?: PoolGauges;
  /** How an embedded database started from a snapshot (server/db/snapshot.ts); absent otherwise. */
  snapshot?: SnapshotStart;
};

/** What /metrics reads of a pg pool: connections open, idle, and checkouts waiting for one. */
export type PoolGauges = {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
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
 * How the app reaches PostgreSQL. `none` or `session`: its own connections, straight or through a
 * session-mode pooler; statements are prepared once per connection (decision 027). `transaction`: a pooler that
 * hands each transaction to any server connection (PgBouncer in transaction mode, RDS Proxy,
 * Supavisor): nothing may outlive a transaction, so every statement is sent unnamed (decision 048).
 */
export type PoolerMode = 'none' | 'session' | 'transaction';

export type PostgresOptions = {
  pooler?: PoolerMode;
  /** Where migrations run when it is not the app's URL: a direct connection past the pooler. */
  migrationUrl?: string | undefined;
};

/**
 * A query config without its statement name. A named statement lives on the server connection that
 * parsed it, and behind a transaction pooler the next transaction of the same client may run on
 * another one ("prepared statement does not exist") or meet a stale one ("already exists"); the
 * unnamed statement is parsed, bound and run in one round trip, which every pooler forwards.
 */
function unnamed(config: unknown): unknown {
  if (typeof config !== 'object' || config === null || !('name' in config)) return config;
  if ('submit' in config && typeof config.submit === 'function') return config;
  return { ...config, name: undefined };
}

/** The pool's connections, made to send unnamed statements only (behind a transaction pooler). */
function sendUnnamed(client: PoolClient): void {
  const query = client.query;
  // Every query of the app goes through a pooled client's query (pool.query checks one out too):
  // replacing it there covers the prepared statements of every repository, present and future.
  Object.defineProperty(client, 'query', {
    value: (config: unknown, ...rest: unknown[]) => Reflect.apply(query, client, [unnamed(config), ...rest]),
  });
}

/**
 * Migrates inside one transaction that holds a transaction-level advisory lock: instances starting
 * at once wait for each other, and the lock ends with the transaction, so it works the same on a
 * direct connection and through a transaction pooler (a session lock would be taken on one server
 * connection and released, or not, on another). The bookkeeping is Drizzle's (its table and hashes,
 * read by drizzle-kit); only the transaction around it is the app's.
 */
async function migrateLocked(db: NodePgDatabase): Promise<void> {
  const { readMigrationFiles } = await import('drizzle-orm/migrator');
  const migrations = readMigrationFiles({ migrationsFolder });
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(
      sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
    );
    const { rows } = await tx.execute<{ created_at: string }>(
      sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    const last = rows[0] ? Number(rows[0].created_at) : undefined;
    for (const migration of migrations) {
      if (last !== undefined && last >= migration.folderMillis) continue;
      for (const statement of migration.sql) await tx.execute(sql.raw(statement));
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
    }
  });
}

/**
 * Connects to PostgreSQL. Its driver loads here, not with the module: an embedded start never
 * needs it (~50 ms of a start).
 */
export async function connectPostgres(
  connectionString: string,
  poolSize = 10,
  options: PostgresOptions = {},
): Promise<DatabaseHandle> {
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
  ]);
  // Connections stay open once made (pg-pool closed them after 10 s idle): a new one costs a backend
  // start, cold catalog caches and a parse of every prepared statement it runs, ~50 ms that the
  // requests of a busy moment waited behind (live delivery's slow bursts, decision 030).
  const pool = new pg.Pool({ connectionString, max: poolSize, idleTimeoutMillis: 0 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next checkout.
  });
  if (options.pooler === 'transaction') pool.on('connect', sendUnnamed);
  const db = drizzlePg(pool, { casing: 'snake_case', logger });
  return {
    db,
    kind: 'postgres',
    pool,
    async migrate() {
      if (!options.migrationUrl) return migrateLocked(drizzlePg(pool, { casing: 'snake_case' }));
      const direct = new pg.Pool({ connectionString: options.migrationUrl, max: 1 });
      try {
        await migrateLocked(drizzlePg(direct, { casing: 'snake_case' }));
      } finally {
        await direct.end();
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
