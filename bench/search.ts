/**
 * Member search at scale: seeds N fictional profiles (default 100,000; pass 1000000 for the full
 * target) into a fresh database and times searches with the filters members use.
 * Usage: node --import tsx bench/search.ts [profiles] [queries]
 * With DATABASE_URL set it runs against PostgreSQL (a database of its own, dropped at the end).
 */
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { connectPostgres, type DatabaseHandle, wrapPglite } from '../server/db/client.ts';
import { sites } from '../server/db/schema/sites.ts';
import { systemClock } from '../server/lib/clock.ts';
import { createMediaSigner } from '../server/lib/media-signing.ts';
import { createLocalStorage } from '../server/lib/storage.ts';
import { seedDemo } from '../server/modules/demo/demo.seed.ts';
import { SearchService } from '../server/modules/search/search.service.ts';

const profiles = Number(process.argv[2] ?? 100_000);
const queries = Number(process.argv[3] ?? 200);

async function open(): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { handle: wrapPglite(await PGlite.create()), drop: async () => undefined };
  const name = `dating_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    handle: connectPostgres(target.toString(), 4),
    async drop() {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const { handle, drop } = await open();
try {
  await handle.migrate();
  let started = performance.now();
  for (let done = 0; done < profiles; done += 20_000) {
    await seedDemo(handle.db, { profiles: Math.min(profiles, done + 20_000) });
  }
  console.log(`seeded ${profiles} profiles in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await handle.db.execute('analyze' as never).catch(() => undefined);

  const [site] = await handle.db.select().from(sites).limit(1);
  const storage = createLocalStorage({
    publicRoot: '/tmp/bench-media',
    privateRoot: '/tmp/bench-media-private',
    signer: createMediaSigner('bench-media-secret', systemClock),
  });
  const search = new SearchService(handle.db, systemClock, storage);
  const filters = [
    { page: 1 },
    { page: 1, gender: 'female' as const },
    { page: 1, country: 'DE' },
    { page: 1, country: 'NL', gender: 'male' as const, min_age: 30, max_age: 45 },
    { page: 5, country: 'GB' },
    { page: 1, country: 'US', countryregion: 'CA', gender: 'female' as const },
  ];
  const timings: number[] = [];
  started = performance.now();
  for (let i = 0; i < queries; i++) {
    const query = filters[i % filters.length]!;
    const t0 = performance.now();
    await search.search(null, { ...site!, loggedOutSearch: true }, query, { hasTrafficSource: false });
    timings.push(performance.now() - t0);
  }
  timings.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      backend: process.env.DATABASE_URL ? 'postgres' : 'pglite',
      profiles,
      queries,
      p50_ms: Number(percentile(timings, 50).toFixed(1)),
      p95_ms: Number(percentile(timings, 95).toFixed(1)),
      max_ms: Number((timings.at(-1) ?? 0).toFixed(1)),
      total_s: Number(((performance.now() - started) / 1000).toFixed(1)),
    }),
  );
} finally {
  await handle.close();
  await drop();
}
