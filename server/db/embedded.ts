import path from 'node:path';
import type { Config } from '#server/config.ts';
import { PgliteThread } from './pglite-thread.ts';
import { defaultSnapshotDir, type PreparedFolder, planDataFolder, type SnapshotOptions } from './snapshot.ts';

/**
 * The embedded database of `npm start` (no DATABASE_URL): its folder in DATA_DIR, and a fresh
 * folder's start from a migrated and seeded snapshot (docs/decisions/012).
 */
export function embeddedDatabaseOf(config: Config): { dataDir: string; snapshot: SnapshotOptions } {
  return {
    dataDir: path.join(config.DATA_DIR, 'db'),
    snapshot: {
      dir: config.PGLITE_SNAPSHOT_DIR ? path.resolve(config.PGLITE_SNAPSHOT_DIR) : defaultSnapshotDir,
      demoProfiles: config.SEED_DEMO ? config.DEMO_PROFILES : null,
    },
  };
}

/** An embedded database starting in its own thread while the rest of the app loads. */
export type EmbeddedStart = { prepared: PreparedFolder; thread: PgliteThread };

/**
 * Plans the data folder and starts PGlite in a worker thread at once (docs/decisions/025): the
 * server's entry calls it before it loads the app's modules, so both run on a core of their own.
 */
export function startEmbeddedDatabase(config: Config): EmbeddedStart {
  const { dataDir, snapshot } = embeddedDatabaseOf(config);
  // A fresh folder is filled from the snapshot in the database's thread too (~0.4 s).
  const prepared = planDataFolder(dataDir, snapshot);
  return { prepared, thread: PgliteThread.start(dataDir, prepared) };
}
