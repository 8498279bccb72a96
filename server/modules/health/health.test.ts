import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { connectPostgres, type DatabaseHandle, wrapPglite } from '#server/db/client.ts';
import { createPglite } from '#server/db/pglite.ts';
import { servedBeforeTheFirstSite } from '#server/lib/request-context.ts';
import { staffCookie, staffPassword, totpCode } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { databaseUrlFor, testPooler } from '../../../tests/setup/test-database.ts';

describe('liveness and readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers live and ready while the database (and Redis) answer', async () => {
    expect((await t.app.inject({ url: '/api/health/live' })).json()).toEqual({ ok: true });
    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      ok: true,
      database: 'up',
      redis: process.env.REDIS_URL ? 'up' : 'not_configured',
      setup_required: false,
    });
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('readiness when the database goes away', () => {
  it('flips to 503 not_ready while the database does not answer, liveness stays 200', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      { LOG_LEVEL: 'warn' },
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
    const info = inject('testDatabase');
    const admin = info.kind === 'postgres' ? new pg.Client({ connectionString: info.adminUrl }) : null;
    const name = t.databaseUrl ? new URL(t.databaseUrl).pathname.slice(1) : '';
    try {
      expect((await t.app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
      if (admin) {
        // PostgreSQL refuses this database's connections: as if it were stopped for the app.
        await admin.connect();
        await admin.query(`alter database "${name}" allow_connections false`);
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
          name,
        ]);
      } else {
        await t.database.close();
      }
      const down = await t.app.inject({ url: '/api/health/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({
        error: 'not_ready',
        database: 'down',
        message: expect.any(String),
      });
      expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
      // A probe every few seconds while the database is away: one line each, no stack trace.
      const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.where === 'health.database');
      expect(logged).toHaveLength(1);
      expect(logged[0].err).toBeDefined();
      // No frames: the log serializer may still write an empty `stack` for an error-like value.
      expect(logged[0].err.stack ?? '').toBe('');
      expect(lines.join('\n')).not.toMatch(/\s+at /);

      if (admin) {
        await admin.query(`alter database "${name}" allow_connections true`);
        // Straight to PostgreSQL the next check reconnects; a pooler (PgBouncer) waits its
        // server_login_retry after a refused login, and a check queued there while the database
        // was shut answers only then (or at its query_wait_timeout).
        await vi.waitFor(
          async () => expect((await t.app.inject({ url: '/api/health/ready' })).statusCode).toBe(200),
          { timeout: 20_000, interval: 200 },
        );
      }
    } finally {
      await admin?.end();
      if (admin) await t.close();
      else await t.app.close().catch(() => undefined);
    }
  }, 60_000);
});

/** A database with the schema and nothing else (SEED_DEMO=0 on a new installation). */
async function emptyDatabase(): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  const info = inject('testDatabase');
  if (info.kind === 'pglite')
    return { handle: wrapPglite(await createPglite()), drop: async () => undefined };
  const name = `${info.prefix}_empty_${process.pid}`;
  const admin = new pg.Client({ connectionString: info.adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  return {
    handle: await connectPostgres(databaseUrlFor(info.appUrl, name), 2, testPooler),
    async drop() {
      const dropper = new pg.Client({ connectionString: info.adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}

describe('SEED_DEMO=0 on an empty database', () => {
  let app: FastifyInstance;
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  let dataDir: string;
  const lines: string[] = [];
  beforeAll(async () => {
    database = await emptyDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'dating-setup-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      ADMIN_EMAIL: 'owner@brand.example',
      ADMIN_PASSWORD: staffPassword,
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    });
    app = await buildApp(config, {
      database: database.handle,
      web: false,
      redisPrefix: `setup:${process.pid}:`,
      logStream: { write: (line: string) => void lines.push(line) },
    });
  }, 120_000);
  afterAll(async () => {
    await app.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the setup page in the visitor language instead of a 500', async () => {
    const page = await app.inject({ url: '/', headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<html lang="de">');
    expect(page.body).toContain('Diese Plattform ist noch nicht eingerichtet');
    expect(page.body).toContain('ADMIN_EMAIL');
    expect(page.body).toContain('ADMIN_PASSWORD');
    expect(page.body).toContain('SEED_DEMO=1');
    const english = await app.inject({ url: '/members' });
    expect(english.body).toContain('This platform is not set up yet');
  });

  it('answers API calls 503 setup_required in the error shape, health with the reason', async () => {
    for (const url of ['/api/user.php', '/api/settings.php', '/api/health']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(503);
      expect(response.json(), url).toMatchObject({ error: 'setup_required', message: expect.any(String) });
    }
    const login = await app.inject({
      method: 'POST',
      url: '/api/user.php',
      payload: { email: 'a@example.com', password: 'whatever-1234' },
    });
    expect(login.statusCode).toBe(503);
    expect((await app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
    // Ready to take traffic (the setup page, the back office), and saying why nothing else answers;
    // a probe every few seconds during setup logs nothing, and surely no stack trace.
    const before = lines.length;
    for (let probe = 0; probe < 3; probe++) {
      const ready = await app.inject({ url: '/api/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ ok: true, database: 'up', setup_required: true });
    }
    expect(lines.slice(before)).toEqual([]);
  });

  it('serves what the back office’s pages load before the first site: the web manifest and the route manifest', async () => {
    const manifest = await app.inject({ url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    // Pages answer through React Router, which is not mounted here: the rule decides, the journey
    // in tests/e2e/first-run.spec.ts shows the navigation it lets through.
    expect(servedBeforeTheFirstSite('/__manifest?p=%2Fadmin%2Fenrol&version=abc')).toBe(true);
    expect(servedBeforeTheFirstSite('/admin/enrol.data')).toBe(true);
    expect(servedBeforeTheFirstSite('/admin.data?_routes=routes%2Fadmin%2Findex')).toBe(true);
    expect(servedBeforeTheFirstSite('/members')).toBe(false);
    expect(servedBeforeTheFirstSite('/api/user.php')).toBe(false);
  });

  it('runs the periodic jobs over no site before the first exists, instead of failing them', async () => {
    for (const kind of ['visitors', 'unread', 'likes_digest'] as const) {
      await expect(app.deps.nudges.run(kind), kind).resolves.toBe(0);
    }
  });

  it('lets the admin from the environment sign in, enrol and create the first company and site, then serves it', async () => {
    const live = await app.inject({ url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    const login = await app.inject({
      method: 'POST',
      url: '/api/admin/session.php',
      payload: { email: 'owner@brand.example', password: staffPassword },
    });
    expect(login.statusCode).toBe(200);
    const cookie = staffCookie(login);
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    // An admin enrols the second factor before anything else.
    expect((await call('GET', '/api/admin/sites.php')).json().error).toBe('otp_enrolment_required');
    const enrolment = await call('POST', '/api/admin/totp.php');
    expect(enrolment.statusCode).toBe(200);
    const confirmed = await call('PUT', '/api/admin/totp.php', {
      code: await totpCode(enrolment.json().secret as string),
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await call('GET', '/api/admin/sites.php')).json()).toMatchObject({ sites: [] });

    const company = await call('POST', '/api/admin/companies.php', {
      name: 'Brand Media B.V.',
      address: 'Keizersgracht 1',
      kvk: '12345678',
      city: 'Amsterdam',
      country: 'NL',
    });
    expect(company.statusCode).toBe(201);
    const site = await call('POST', '/api/admin/sites.php', {
      domain: 'brand.example',
      name: 'Brand',
      countries: ['NL'],
      domain_language: 'nl',
      company_id: company.json().company.id,
      support_email: 'support@brand.example',
    });
    expect(site.statusCode).toBe(201);

    // Served at once, on this instance and the readiness probe alike.
    const settings = await app.inject({ url: '/api/settings.php', headers: { host: 'brand.example' } });
    expect(settings.statusCode).toBe(200);
    expect(settings.json()).toMatchObject({ name: 'Brand' });
    expect((await app.inject({ url: '/api/health/ready' })).json()).toMatchObject({ setup_required: false });
    const home = await app.inject({ url: '/api/user.php', headers: { host: 'brand.example' } });
    expect(home.statusCode).toBe(200);
  });
});
