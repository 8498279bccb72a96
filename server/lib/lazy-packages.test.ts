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
  it('loads none of the packages it does not need yet (issue 15: start time)', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        path.join(projectRoot, 'tests', 'setup', 'record-imports-register.mjs'),
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "await import('./server/app.ts');",
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
    // The recording works: the start's own packages are there.
    expect(imported.has('fastify')).toBe(true);
    expect(imported.has('@electric-sql/pglite')).toBe(true);
    expect(loadedOnFirstUse.filter((name) => imported.has(name))).toEqual([]);
  });
});
