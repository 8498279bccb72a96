import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { connectPostgres, type DatabaseHandle, type PoolerMode, wrapPglite } from '../../server/db/client.ts';
import { createPglite } from '../../server/db/pglite.ts';

export type TestDatabaseInfo =
  | { kind: 'pglite'; dumpFile: string; runId: string }
  | {
      kind: 'postgres';
      /** A direct connection: databases are made and dropped there (see testDatabaseUrls). */
      adminUrl: string;
      /** DATABASE_URL, the way the app connects: straight, or through a transaction pooler. */
      appUrl: string;
      prefix: string;
      template: string;
      runId: string;
    };

/**
 * Behind a transaction pooler (DATABASE_POOLER=transaction) the tests connect as the app would,
 * and pass this to every connectPostgres of their own.
 */
export const testPooler: { pooler: PoolerMode } = {
  pooler: process.env.DATABASE_POOLER === 'transaction' ? 'transaction' : 'none',
};

/**
 * The run's URLs: the app's (DATABASE_URL) and the admin one where databases are created and
 * dropped: DATABASE_DIRECT_URL when set, else DATABASE_URL. Through a pooler CREATE DATABASE …
 * TEMPLATE fails while the pooler keeps idle server connections to the template open ("being
 * accessed by other users"), so behind one the admin URL is the direct one.
 */
export function testDatabaseUrls(
  env: NodeJS.ProcessEnv = process.env,
): { appUrl: string; adminUrl: string } | null {
  if (!env.DATABASE_URL) return null;
  return { appUrl: env.DATABASE_URL, adminUrl: env.DATABASE_DIRECT_URL ?? env.DATABASE_URL };
}

export function databaseUrlFor(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

let counter = 0;
/** Unique per load of this module: a file with its own module graph counts from 0 again (test-app.ts). */
const moduleMark = randomBytes(3).toString('hex');

/** A database of its own for one test file, copied from the run's migrated and seeded template. */
export async function createTestDatabase(
  info: TestDatabaseInfo,
): Promise<{ handle: DatabaseHandle; url?: string; directUrl?: string; drop(): Promise<void> }> {
  if (info.kind === 'pglite') {
    const dump = await readFile(info.dumpFile);
    const client = await createPglite(undefined, { loadDataDir: new Blob([dump]) });
    return { handle: wrapPglite(client), drop: async () => undefined };
  }
  const name = `${info.prefix}_${process.pid}_${moduleMark}_${++counter}`;
  const admin = new pg.Client({ connectionString: info.adminUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${info.template}"`);
        break;
      } catch (error) {
        // Another file may be copying the template at this very moment.
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + attempt * 50));
      }
    }
  } finally {
    await admin.end();
  }
  const url = databaseUrlFor(info.appUrl, name);
  return {
    handle: await connectPostgres(url, 5, testPooler),
    url,
    directUrl: databaseUrlFor(info.adminUrl, name),
    async drop() {
      const dropper = new pg.Client({ connectionString: info.adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}
