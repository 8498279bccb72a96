import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { createPglite } from './pglite.ts';
import type { ThreadData, ThreadError, ThreadReply, ThreadRequest } from './pglite-thread.ts';

/**
 * The thread side of server/db/pglite-thread.ts: opens PGlite in the data folder it is given and
 * answers the main thread's requests. A transaction stays open in PGlite's `transaction()` callback
 * until the main thread ends it.
 */

const port = parentPort;
if (!port) throw new Error('pglite-thread.worker runs as a worker thread');
const { dataDir, prepared }: ThreadData = workerData;

function plainError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

const reply = (message: ThreadReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** Ends an open transaction: resolves to commit, rejects to roll back. */
type OpenTransaction = { tx: Transaction; end(commit: boolean): void };
const transactions = new Map<number, OpenTransaction>();
/** PGlite's answer to each open transaction: committed, rolled back or failed. */
const transactionsDone = new Map<number, Promise<void>>();
/** Thrown inside PGlite's callback to roll the transaction back; never leaves this thread. */
const rollBack = new Error('rolled back by the main thread');

async function run(db: PGlite, request: ThreadRequest): Promise<void> {
  switch (request.op) {
    case 'query': {
      const keepText = (value: string) => value;
      const options = {
        rowMode: request.rowMode,
        parsers: Object.fromEntries(request.rawTypes.map((type) => [type, keepText])),
      };
      const executor = request.tx === undefined ? db : transactions.get(request.tx)?.tx;
      if (!executor) throw new Error('no such transaction');
      const { rows, fields, affectedRows } = await executor.query(request.sql, request.params, options);
      reply({ id: request.id, ok: true, value: { rows, fields, affectedRows } });
      return;
    }
    case 'begin': {
      const id = request.id;
      let opened = false;
      const done = db.transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            opened = true;
            transactions.set(id, { tx, end: (commit) => (commit ? resolve() : reject(rollBack)) });
            // The transaction is open: its number is the begin request's id.
            reply({ id, ok: true, value: id });
          }),
      );
      // Settled by the 'end' request, which answers once PGlite has committed or rolled back.
      transactionsDone.set(id, done);
      done.catch((error: unknown) => {
        if (opened) return;
        transactionsDone.delete(id);
        reply({ id, ok: false, error: plainError(error) });
      });
      return;
    }
    case 'end': {
      const open = transactions.get(request.tx);
      const done = transactionsDone.get(request.tx);
      if (!open || !done) throw new Error('no such transaction');
      transactions.delete(request.tx);
      transactionsDone.delete(request.tx);
      open.end(request.commit);
      try {
        await done;
      } catch (error) {
        if (error !== rollBack) throw error;
      }
      reply({ id: request.id, ok: true });
      return;
    }
    case 'dump': {
      const dump = await db.dumpDataDir(request.compression);
      const bytes = await dump.arrayBuffer();
      reply({ id: request.id, ok: true, value: bytes }, [bytes]);
      return;
    }
    case 'close': {
      await db.close();
      reply({ id: request.id, ok: true });
      return;
    }
  }
}
try {
  if (prepared.kind === 'restored') {
    // Only a fresh folder needs the snapshot's module (and zod with it).
    const { fillDataFolder } = await import('./snapshot.ts');
    fillDataFolder(dataDir, prepared);
  }
  const db = await createPglite(dataDir);
  port.on('message', (request: ThreadRequest) => {
    run(db, request).catch((error: unknown) =>
      reply({ id: request.id, ok: false, error: plainError(error) }),
    );
  });
  reply({ id: 0, ready: true });
} catch (error) {
  reply({ id: 0, ready: false, error: plainError(error) });
}
