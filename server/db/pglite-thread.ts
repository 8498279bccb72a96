import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import type { PreparedFolder } from './snapshot.ts';

/**
 * The embedded database (PGlite) in a thread of its own, for the server's start
 * (docs/decisions/025): PostgreSQL's start in WebAssembly (~1.3 s) runs on the second core while
 * the main thread loads and builds the app, and later queries run there without blocking requests.
 * The main thread keeps a stand-in with the part of PGlite's interface Drizzle's PGlite driver and
 * the snapshot use: `query`, `transaction` (whose `tx.query` runs inside it), `dumpDataDir`, `close`.
 */

/** What the thread starts with: its data folder, and how to fill it when fresh (server/db/snapshot.ts). */
export type ThreadData = { dataDir: string; prepared: PreparedFolder };

/** What the main thread asks; `tx` names the open transaction a query belongs to. */
export type ThreadRequest =
  | {
      id: number;
      op: 'query';
      tx?: number;
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      /** Types the answer keeps as PostgreSQL's text (Drizzle parses dates and intervals itself). */
      rawTypes: number[];
    }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'dump'; compression: 'none' | 'gzip' }
  | { id: number; op: 'close' };

/** A database error as plain data: its message and PostgreSQL's fields (code, constraint, …). */
export type ThreadError = { name: string; message: string; fields: Record<string, string | number> };

export type ThreadReply =
  | { id: number; ok: true; value?: unknown }
  | { id: number; ok: false; error: ThreadError }
  | { id: 0; ready: true }
  | { id: 0; ready: false; error: ThreadError };

/** Rebuilds a database error on the main thread, with the fields callers look at (`code`, `constraint`). */
export function errorFromThread(error: ThreadError): Error {
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  Object.assign(rebuilt, error.fields);
  return rebuilt;
}

/** A request before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/** The transaction a callback gets: its queries run inside the thread's open transaction. */
export type ThreadTransaction = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
};

/** PGlite behind a worker thread; see the module's comment for what it answers. */
export class PgliteThread {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stopped: Error | null = null;
  readonly ready: Promise<void>;

  private constructor(private readonly worker: Worker) {
    this.ready = new Promise((resolve, reject) => {
      const onFirst = (reply: ThreadReply) => {
        if (!('ready' in reply)) return;
        worker.off('message', onFirst);
        if (reply.ready) resolve();
        else reject(errorFromThread(reply.error));
      };
      worker.on('message', onFirst);
      worker.once('error', reject);
    });
    worker.on('message', (reply: ThreadReply) => {
      if ('ready' in reply) return;
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(errorFromThread(reply.error));
    });
    const stop = (error: Error) => {
      this.stopped = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) => stop(new Error('the embedded database stopped', { cause: error })));
    worker.on('exit', () => stop(new Error('the embedded database is closed')));
  }

  /**
   * Starts the thread; the returned stand-in answers once PostgreSQL has started in `dataDir`
   * (filled from the snapshot first when `prepared` says so).
   */
  static start(dataDir: string, prepared: PreparedFolder = { kind: 'existing' }): PgliteThread {
    const workerData: ThreadData = { dataDir, prepared };
    const options = { workerData };
    if (!import.meta.url.endsWith('.ts')) {
      // The bundled server has the thread's entry built beside its own (scripts/build-server.mjs).
      return new PgliteThread(new Worker(new URL('./pglite-thread.worker.mjs', import.meta.url), options));
    }
    // The sources (tests, `npm run dev`, the browser tests) run through tsx, which Node 20 does not
    // carry into a worker thread: the thread registers it before it imports its TypeScript entry.
    const tsx = import.meta.resolve('tsx/esm/api');
    const entry = new URL('./pglite-thread.worker.ts', import.meta.url).href;
    const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
    return new PgliteThread(new Worker(bootstrap, { ...options, eval: true }));
  }

  private ask<T>(request: Unnumbered<ThreadRequest>): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (value) => resolve(value as T), reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  query<T>(
    sql: string,
    params: unknown[] = [],
    options: QueryOptions = {},
    tx?: number,
  ): Promise<Results<T>> {
    return this.ask<Results<T>>({
      op: 'query',
      sql,
      params,
      rowMode: options.rowMode ?? 'object',
      // Drizzle hands in parsers that return PostgreSQL's text unchanged for the types it maps itself.
      rawTypes: Object.keys(options.parsers ?? {}).map(Number),
      ...(tx === undefined ? {} : { tx }),
    });
  }

  /** Runs `callback` in one transaction of the thread: committed when it resolves, rolled back when it throws. */
  async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = await this.ask<number>({ op: 'begin' });
    let result: T;
    try {
      result = await callback({ query: (sql, params, options) => this.query(sql, params, options, tx) });
    } catch (error) {
      try {
        await this.ask({ op: 'end', tx, commit: false });
      } catch (rollbackError) {
        // The thread stopped: its transactions ended with it, and the callback's error tells why.
        if (rollbackError === this.stopped) throw error;
        // Otherwise the transaction may still be open and hold the database: both errors go up.
        throw new AggregateError(
          [error, rollbackError],
          'an embedded transaction failed and so did its rollback',
        );
      }
      throw error;
    }
    await this.ask({ op: 'end', tx, commit: true });
    return result;
  }

  /** The data folder as PGlite's tarball (the start snapshot, server/db/snapshot.ts). */
  async dumpDataDir(compression: 'none' | 'gzip'): Promise<Blob> {
    return new Blob([await this.ask<ArrayBuffer>({ op: 'dump', compression })]);
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.ask({ op: 'close' });
    } finally {
      // The thread ends even when PGlite's close failed; that failure goes up to the caller.
      await this.worker.terminate();
    }
  }
}
