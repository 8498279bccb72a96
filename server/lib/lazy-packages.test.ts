import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#server/lib/project-root.ts';

/** The packages loaded only on first use (lazy-packages.ts and the modules that load their own). */
const loadedOnFirstUse = [
  'sharp',
  'nodemailer',
  'otplib',
  '@zxcvbn-ts/language-common',
  '@rapideditor/country-coder',
  'qrcode',
  '@ffmpeg-installer/ffmpeg',
  '@node-rs/argon2',
  // Only where PAYMENT_PROVIDER=mollie.
  '@mollie/api-client',
  // PostgreSQL and Redis clients: only when DATABASE_URL or REDIS_URL is set.
  'pg',
  'drizzle-orm/node-postgres',
  'ioredis',
];

describe('an embedded start', () => {
  it('loads none of the packages it does not need yet, which would slow the start', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        path.join(projectRoot, 'tests', 'setup', 'record-imports-register.mjs'),
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        // CommonJS packages required on the spot (geoip-country) pass no import hook: listed here.
        "await import('./server/app.ts'); const { createRequire } = await import('node:module'); for (const file of Object.keys(createRequire(import.meta.url).cache)) process.stderr.write('required ' + file + '\\n');",
      ],
      { cwd: projectRoot, encoding: 'utf8', env: { ...process.env, DATABASE_URL: '', REDIS_URL: '' } },
    );
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    const imported = new Set(
      run.stderr
        .split('\n')
        .filter((line) => line.startsWith('imported '))
        .map((line) => line.slice('imported '.length)),
    );
    const required = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('required '))
      .map((line) => line.slice('required '.length));
    // The recording works: the start's own packages are there.
    expect(imported.has('fastify')).toBe(true);
    expect(imported.has('@electric-sql/pglite')).toBe(true);
    expect(loadedOnFirstUse.filter((name) => imported.has(name))).toEqual([]);
    expect(required.some((file) => file.includes('/node_modules/fastify/'))).toBe(true);
    expect(required.filter((file) => file.includes('/node_modules/geoip-country/'))).toEqual([]);
  });
});
