#!/usr/bin/env node
// After `react-router build`: writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy next to
// every compressible file of the client build, so the server sends them as they are
// (@fastify/static preCompressed) instead of compressing on every request. A copy that would not be
// smaller than the file is not written.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const compressible = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml|map|wasm)$/i;
const minimumBytes = 1024;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

export async function compressDir(dir) {
  let written = 0;
  for await (const file of files(dir)) {
    if (!compressible.test(file)) continue;
    const source = await readFile(file);
    if (source.length < minimumBytes) continue;
    const [br, gz] = await Promise.all([
      brotli(source, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      }),
      gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    if (br.length < source.length) {
      await writeFile(`${file}.br`, br);
      written++;
    }
    if (gz.length < source.length) {
      await writeFile(`${file}.gz`, gz);
      written++;
    }
  }
  return written;
}

const isMain =
  process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const dir = path.resolve(process.argv[2] ?? 'build/client');
  const found = await stat(dir).catch((error) => {
    // expected: a folder that is not there is the message below; any other reason is printed too.
    if (error.code !== 'ENOENT') console.error(`compress-assets: ${error.message}`);
    return null;
  });
  if (!found?.isDirectory()) {
    console.error(`compress-assets: no directory ${dir}`);
    process.exit(1);
  }
  const started = Date.now();
  const written = await compressDir(dir);
  console.log(`compress-assets: ${written} pre-compressed files in ${dir} (${Date.now() - started} ms)`);
}
