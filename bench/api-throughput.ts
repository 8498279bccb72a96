/**
 * API throughput: GET /api/settings.php of the real app against a Fastify hello world, both on
 * loopback in this process's machine, with the same bounded load (requests and concurrency).
 * Usage: node --import tsx bench/api-throughput.ts [requests] [concurrency]
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';

const requests = Number(process.argv[2] ?? 5000);
const concurrency = Number(process.argv[3] ?? 32);

async function load(url: string): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const response = await fetch(url);
        await response.arrayBuffer();
      }
    }),
  );
  return requests / ((performance.now() - started) / 1000);
}

const hello = Fastify();
hello.get('/', async () => ({ hello: 'world' }));
await hello.listen({ port: 0, host: '127.0.0.1' });

const app = await buildApp(
  loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-')),
    DEMO_PROFILES: '50',
  }),
  { web: false },
);
await app.listen({ port: 0, host: '127.0.0.1' });

try {
  const baseline = await load(`http://127.0.0.1:${(hello.server.address() as AddressInfo).port}/`);
  const settings = await load(
    `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/settings.php`,
  );
  console.log(
    JSON.stringify({
      requests,
      concurrency,
      hello_world_rps: Math.round(baseline),
      settings_rps: Math.round(settings),
      ratio: Number((settings / baseline).toFixed(2)),
    }),
  );
} finally {
  await app.close();
  await hello.close();
}
