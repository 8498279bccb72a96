import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { connectPostgres, type Database, type DatabaseHandle } from '../../server/db/client.ts';
import { connectReadRouter, type ReadRouter } from '../../server/db/read-router.ts';
import { activeMember } from '../setup/members.ts';

// Made by scripts/replica-test.mjs: a temporary primary and its streaming standby.
const primaryUrl = process.env.REPLICA_PRIMARY_URL ?? '';
const standbyUrl = process.env.REPLICA_STANDBY_URL ?? '';
if (!primaryUrl || !standbyUrl) throw new Error('Run these tests with `npm run test:replica`.');
const primaryPort = Number(new URL(primaryUrl).port);
const standbyPort = Number(new URL(standbyUrl).port);

async function portOf(db: Database): Promise<number> {
  const { rows } = z
    .object({ rows: z.array(z.object({ port: z.coerce.number() })) })
    .parse(await db.execute(sql`select inet_server_port() as port`));
  return Number(rows[0]?.port);
}

async function untilState(router: ReadRouter, state: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const [status] = await router.check();
      expect(status?.state).toBe(state);
    },
    { timeout: 15_000, interval: 50 },
  );
}

/** Until the standby has replayed everything the primary had written when this was called. */
async function untilReplayed(): Promise<void> {
  const lsn = z
    .object({ rows: z.array(z.object({ lsn: z.string() })) })
    .parse(await primary.db.execute(sql`select pg_current_wal_lsn()::text as lsn`)).rows[0]?.lsn;
  await vi.waitFor(
    async () => {
      const { rows } = z
        .object({ rows: z.array(z.object({ caught_up: z.boolean() })) })
        .parse(await standby.db.execute(sql`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as caught_up`));
      expect(rows[0]?.caught_up).toBe(true);
    },
    { timeout: 15_000, interval: 20 },
  );
}

function pgCtl(args: string[]): void {
  const pgCtlPath = process.env.REPLICA_PG_CTL ?? 'pg_ctl';
  const runAs = process.env.REPLICA_RUN_AS;
  const [file, argv] = runAs ? ['runuser', ['-u', runAs, '--', pgCtlPath, ...args]] : [pgCtlPath, args];
  execFileSync(file, argv, { stdio: 'pipe' });
}

let primary: DatabaseHandle;
let standby: DatabaseHandle;
let app: FastifyInstance;
let dataDir: string;

beforeAll(async () => {
  primary = await connectPostgres(primaryUrl, 4);
  standby = await connectPostgres(standbyUrl, 2);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'replica-app-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: primaryUrl,
    DATABASE_REPLICA_URL: standbyUrl,
    DATABASE_REPLICA_CHECK_MS: '100',
    DATABASE_REPLICA_MAX_LAG_MS: '60000',
    SEED_DEMO: '1',
    DEMO_PROFILES: '12',
    SESSION_CACHE_MS: '0',
    PAGE_CACHE_MS: '0',
    CHAT_LIST_CACHE_MS: '0',
    SEARCH_COUNT_CACHE_MS: '0',
  });
  app = await buildApp(config);
});

afterAll(async () => {
  await app?.close();
  // One test stops the standby server under its pool: closing that pool may fail, and says why.
  await standby?.close().catch((error: unknown) => console.warn('standby pool close failed:', error));
  await primary?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('read replicas on a real streaming standby', () => {
  it('serves a member’s reads from the standby, and from the primary right after they wrote', async () => {
    const reads = app.deps.reads;
    await untilState(reads, 'ok');
    const member = await activeMember(app);
    const viewer = await activeMember(app);
    // Signing up marks no one (no session yet when it answers): a visitor's read goes to the standby.
    expect(await portOf(reads.for(null))).toBe(standbyPort);
    // Both members are on the standby before it stops replaying.
    await untilReplayed();

    // Replay paused: the standby keeps what it had, the primary moves on.
    await standby.db.execute(sql`select pg_wal_replay_pause()`);
    try {
      const renamed = await app.inject({
        method: 'PUT',
        url: '/api/profile.php',
        headers: { cookie: member.cookie },
        payload: { name: 'Renamed' },
      });
      expect(renamed.statusCode).toBe(200);
      // Their own view of their page comes from the primary: the new name.
      expect(await portOf(reads.for(member.userId))).toBe(primaryPort);
      const own = await app.inject({
        url: `/api/member.php?id=${member.profileId}`,
        headers: { cookie: member.cookie },
      });
      expect(own.json().profile.name).toBe('Renamed');
      // A visitor's read of the same page goes to the standby, which has not replayed the change.
      const other = await app.inject({
        url: `/api/member.php?id=${member.profileId}`,
        headers: { cookie: viewer.cookie },
      });
      expect(other.statusCode).toBe(200);
      expect(other.json().profile.name).toBe('Robin');
    } finally {
      await standby.db.execute(sql`select pg_wal_replay_resume()`);
    }
    await vi.waitFor(
      async () => {
        const other = await app.inject({
          url: `/api/member.php?id=${member.profileId}`,
          headers: { cookie: viewer.cookie },
        });
        expect(other.json().profile.name).toBe('Renamed');
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it('serves conversation and likes lists from the standby, and the writer’s own from the primary', async () => {
    await untilState(app.deps.reads, 'ok');
    const writer = await activeMember(app);
    const receiver = await activeMember(app);
    await untilReplayed();
    await standby.db.execute(sql`select pg_wal_replay_pause()`);
    try {
      const sent = await app.inject({
        method: 'POST',
        url: '/api/chat.php',
        headers: { cookie: writer.cookie },
        payload: { profile: receiver.profileId, text: 'Hello from the primary' },
      });
      expect(sent.statusCode).toBe(201);
      const liked = await app.inject({
        method: 'POST',
        url: '/api/like.php',
        headers: { cookie: writer.cookie },
        payload: { profile: receiver.profileId },
      });
      expect(liked.statusCode).toBe(200);
      const listOf = async (cookie: string, url: string) =>
        (await app.inject({ url, headers: { cookie } })).json();
      // The writer reads their own lists from the primary: the conversation and the like are there.
      const writersChats = await listOf(writer.cookie, '/api/chats.php');
      expect(writersChats.chats.map((chat: { profile: { id: number } }) => chat.profile.id)).toContain(
        receiver.profileId,
      );
      const writersLikes = await listOf(writer.cookie, '/api/likes.php');
      expect(writersLikes.profiles.map((profile: { id: number }) => profile.id)).toContain(
        receiver.profileId,
      );
      // The receiver wrote nothing: their lists come from the standby, which has not replayed them.
      expect((await listOf(receiver.cookie, '/api/chats.php')).chats).toEqual([]);
      expect((await listOf(receiver.cookie, '/api/likes.php')).liked_by).toEqual([]);
    } finally {
      await standby.db.execute(sql`select pg_wal_replay_resume()`);
    }
    await vi.waitFor(
      async () => {
        const chats = await app.inject({ url: '/api/chats.php', headers: { cookie: receiver.cookie } });
        expect(chats.json().chats).toHaveLength(1);
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it('ends the primary reads of a member after the sticky window', async () => {
    let now = 1_000_000;
    const router = await connectReadRouter(primary, [standbyUrl], {
      poolSize: 1,
      pooler: 'none',
      maxLagMs: 60_000,
      stickyMs: 5000,
      now: () => now,
    });
    try {
      await untilState(router, 'ok');
      await router.memberWrote(7);
      expect(await portOf(router.for(7))).toBe(primaryPort);
      expect(await portOf(router.for(8))).toBe(standbyPort);
      now += 5001;
      expect(await portOf(router.for(7))).toBe(standbyPort);
    } finally {
      await router.stop();
    }
  });

  it('sends reads to the primary while the standby lags, and back once it caught up', async () => {
    const failures: string[] = [];
    const router = await connectReadRouter(primary, [standbyUrl], {
      poolSize: 1,
      pooler: 'none',
      maxLagMs: 200,
      stickyMs: 5000,
      onCheckFailed: (name) => failures.push(name),
    });
    try {
      await untilState(router, 'ok');
      await standby.db.execute(sql`select pg_wal_replay_pause()`);
      try {
        await primary.db.execute(sql`create table if not exists replica_lag_probe (at timestamptz)`);
        // Writes keep coming while the standby does not replay them.
        await vi.waitFor(
          async () => {
            await primary.db.execute(sql`insert into replica_lag_probe values (now())`);
            const [status] = await router.check();
            expect(status?.state).toBe('lagging');
          },
          { timeout: 15_000, interval: 50 },
        );
        expect(await portOf(router.for(null))).toBe(primaryPort);
      } finally {
        await standby.db.execute(sql`select pg_wal_replay_resume()`);
      }
      await untilState(router, 'ok');
      expect(await portOf(router.for(null))).toBe(standbyPort);
      expect(failures).toEqual([]);
    } finally {
      await router.stop();
    }
  });

  it('sends reads to the primary when the standby is down', async () => {
    const failures: string[] = [];
    const router = await connectReadRouter(primary, [standbyUrl], {
      poolSize: 1,
      pooler: 'none',
      maxLagMs: 60_000,
      stickyMs: 5000,
      onCheckFailed: (name) => failures.push(name),
    });
    try {
      await untilState(router, 'ok');
      expect(await portOf(router.for(null))).toBe(standbyPort);
      await standby.close();
      pgCtl(['stop', '-D', process.env.REPLICA_STANDBY_DATA ?? '', '-m', 'fast', '-w']);
      const [status] = await router.check();
      expect(status?.state).toBe('down');
      expect(failures.length).toBeGreaterThan(0);
      expect(await portOf(router.for(null))).toBe(primaryPort);
      // The app's own router sees it too, and a member's search is answered by the primary.
      await untilState(app.deps.reads, 'down');
      const searcher = await activeMember(app);
      const search = await app.inject({ url: '/api/search.php', headers: { cookie: searcher.cookie } });
      expect(search.statusCode).toBe(200);
      expect(search.json().total).toBeGreaterThan(0);
    } finally {
      await router.stop();
    }
  });
});
