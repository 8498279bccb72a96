// Photo screening on this machine (docs/decisions/045): `node --import tsx bench/screening.ts`.
//
// 1. CPU of screening one 1,600 px photo with both models (face detector + age, nudity classifier),
//    in this process after a warm-up, beside a reference measured in the same run: sharp turning the
//    same photo into the upload's variants' main size (what every upload already costs).
// 2. Whether screening blocks other requests: a small HTTP server on this thread answers while 20
//    photos wait in the screening thread at once; its p99 beside the idle p99, same run.
import { createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ThreadScreener } from '../server/modules/photos/screener.ts';
import { loadModels, screenImage } from '../server/modules/photos/screening-models.ts';

const require = createRequire(import.meta.url);
const demo = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');
const rounds = Number(process.env.SCREENING_ROUNDS ?? 40);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const cpuMs = async (work: () => Promise<unknown>) => {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

const photo = await sharp(path.join(demo, 'sample1.jpg')).resize(1600).jpeg({ quality: 90 }).toBuffer();
const meta = await sharp(photo).metadata();
console.log(`photo: demo/sample1.jpg at ${meta.width}×${meta.height}, ${Math.round(photo.length / 1024)} KB`);
console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, node ${process.version}`);

const loadStart = performance.now();
await loadModels();
console.log(`models loaded in ${Math.round(performance.now() - loadStart)} ms`);
const reference = () =>
  sharp(photo).rotate().resize(720, 720, { fit: 'inside' }).webp({ quality: 80 }).toBuffer();
for (let i = 0; i < 3; i++) {
  await screenImage(photo);
  await reference();
}
const screening: number[] = [];
const resizing: number[] = [];
for (let i = 0; i < rounds; i++) {
  // Paired: each round measures the reference and the screening back to back.
  resizing.push(await cpuMs(reference));
  screening.push(await cpuMs(() => screenImage(photo)));
}
const row = (name: string, values: number[]) =>
  console.log(
    `${name.padEnd(32)} p50 ${percentile(values, 50).toFixed(0).padStart(4)} ms  p95 ${percentile(values, 95).toFixed(0).padStart(4)} ms CPU`,
  );
row('screening (both models)', screening);
row('reference: sharp to 720 px WebP', resizing);

// ---- other requests while 20 photos are screened
const server = createServer((_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ ok: true, at: Date.now() }));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const get = () =>
  new Promise<number>((resolve, reject) => {
    const start = performance.now();
    request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - start));
    })
      .on('error', reject)
      .end();
  });
const latencies = async (count: number) => {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(await get());
  return out;
};
const screener = new ThreadScreener();
await screener.screen(photo); // the thread's models loaded before measuring
await latencies(200);
const idle = await latencies(1000);
const busy: number[] = [];
const started = performance.now();
const twenty = Promise.all(Array.from({ length: 20 }, () => screener.screen(photo)));
let done = false;
void twenty.then(() => {
  done = true;
});
while (!done) busy.push(await get());
await twenty;
const screeningWall = performance.now() - started;
console.log(
  `requests idle: p99 ${percentile(idle, 99).toFixed(2)} ms; while 20 photos were screened (${(screeningWall / 1000).toFixed(1)} s, ${busy.length} requests): p99 ${percentile(busy, 99).toFixed(2)} ms (${(percentile(busy, 99) / percentile(idle, 99)).toFixed(2)} × idle)`,
);
await screener.close();
server.close();
