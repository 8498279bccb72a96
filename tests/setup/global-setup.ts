import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectPostgres, wrapPglite } from '../../server/db/client.ts';
import { createPglite } from '../../server/db/pglite.ts';
import { seedDemo } from '../../server/modules/demo/demo.seed.ts';
import { databaseUrlFor, type TestDatabaseInfo, testDatabaseUrls } from './test-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseInfo;
  }
}

/** Demo members in the template every test file starts from. */
const templateProfiles = 60;

/**
 * Migrates and seeds one database per run, then each test file copies it: a PGlite dump, or a
 * PostgreSQL template database when DATABASE_URL is set. Everything made here is dropped at the end.
 */
export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const urls = testDatabaseUrls();

  if (urls) {
    // The template is made, migrated and seeded on the admin (direct) connection: copying it needs
    // no session open on it, and a pooler would keep its server connections (test-database.ts).
    const databaseUrl = urls.adminUrl;
    const prefix = `dating_test_${runId}`;
    const template = `${prefix}_template`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database "${template}"`);
    const handle = await connectPostgres(databaseUrlFor(databaseUrl, template), 2);
    await handle.migrate();
    await seedDemo(handle.db, { profiles: templateProfiles });
    await handle.close();
    project.provide('testDatabase', {
      kind: 'postgres',
      adminUrl: databaseUrl,
      appUrl: urls.appUrl,
      prefix,
      template,
      runId,
    });
    return async () => {
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`${prefix}%`],
      );
      for (const { datname } of rows) {
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
          datname,
        ]);
        await admin.query(`drop database if exists "${datname}"`);
      }
      await admin.end();
    };
  }

  const dir = await mkdtemp(path.join(os.tmpdir(), 'dating-test-'));
  const client = await createPglite();
  const handle = wrapPglite(client);
  await handle.migrate();
  await seedDemo(handle.db, { profiles: templateProfiles });
  const dump = await client.dumpDataDir('gzip');
  const dumpFile = path.join(dir, 'template.tar.gz');
  await writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('testDatabase', { kind: 'pglite', dumpFile, runId });
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
