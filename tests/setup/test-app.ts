import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../server/app.ts';
import type { BuildOptions } from '../../server/app-types.ts';
import { type Config, loadConfig } from '../../server/config.ts';
import type { DatabaseHandle } from '../../server/db/client.ts';
import { fakeScreener } from './screening.ts';
import { createTestDatabase } from './test-database.ts';

export type TestApp = {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  /** The file's own database URL on PostgreSQL (undefined on PGlite). */
  databaseUrl: string | undefined;
  /** The same database on a direct connection, past a pooler when the run has one (PostgreSQL only). */
  databaseDirectUrl: string | undefined;
  /** The Redis prefix of this app, for a second instance that must share its channels. */
  redisPrefix: string;
  close(): Promise<void>;
};

let instances = 0;
/**
 * This module's own mark in the prefix: a file that replaces a module (vi.mock) loads this module
 * afresh in a worker process that already ran others, and its count starts at 0 again, so pid and
 * count alone gave two apps of one process the same prefix (one's rate-limit counters refused the
 * other's sign-ups).
 */
const moduleMark = randomBytes(3).toString('hex');

/**
 * Builds the app as production does, on a database of the test file's own (PGlite by default,
 * PostgreSQL and Redis when DATABASE_URL and REDIS_URL are set), without pages.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: Pick<
    BuildOptions,
    'clock' | 'mailTransport' | 'pushSender' | 'smsSender' | 'logStream' | 'paymentProvider' | 'screener'
  > = {},
): Promise<TestApp> {
  const info = inject('testDatabase');
  const database = await createTestDatabase(info);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dating-app-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
    // The per-process caches are off unless a test is about one: a test reads back what it wrote.
    SESSION_CACHE_MS: '0',
    PAGE_CACHE_MS: '0',
    CHAT_LIST_CACHE_MS: '0',
    SEARCH_COUNT_CACHE_MS: '0',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  // A test may set REDIS_PREFIX to put two apps on one prefix (or on two).
  const redisPrefix = env.REDIS_PREFIX ?? `test:${info.runId}:${process.pid}:${moduleMark}:${++instances}:`;
  // Photos are screened by a stand-in that approves (one adult face, neutral) unless a test hands in
  // its own: the real models load in their own test file (photos/screening-models.test.ts).
  const app = await buildApp(config, {
    database: database.handle,
    web: false,
    redisPrefix,
    screener: fakeScreener(),
    ...options,
  });
  return {
    app,
    database: database.handle,
    config,
    databaseUrl: database.url,
    databaseDirectUrl: database.directUrl,
    redisPrefix,
    async close() {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
