import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { connectPostgres, type DatabaseHandle, wrapPglite } from '../../server/db/client.ts';
import { createPglite } from '../../server/db/pglite.ts';

export type TestDatabaseInfo =
  | { kind: 'pglite'; dumpFile: string; runId: string }
  | { kind: 'postgres'; adminUrl: string; prefix: string; template: string; runId: string };

export function databaseUrlFor(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

let counter = 0;

/** A database of its own for one test file, copied from the run's migrated and seeded template. */
export async function createTestDatabase(
  info: TestDatabaseInfo,
): Promise<{ handle: DatabaseHandle; url?: string; drop(): Promise<void> }> {
  if (info.kind === 'pglite') {
    const dump = await readFile(info.dumpFile);
    const client = await createPglite(undefined, { loadDataDir: new Blob([dump]) });
    return { handle: wrapPglite(client), drop: async () => undefined };
  }
  const name = `${info.prefix}_${process.pid}_${++counter}`;
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
  const url = databaseUrlFor(info.adminUrl, name);
  return {
    handle: await connectPostgres(url, 5),
    url,
    async drop() {
      const dropper = new pg.Client({ connectionString: info.adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}
