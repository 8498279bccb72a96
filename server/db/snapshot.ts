import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { projectRoot } from '#server/lib/project-root.ts';

/**
 * Fast start of the embedded database (docs/decisions/012-pglite-start-snapshot.md): a fresh data
 * folder starts from a tarball of a migrated (and demo-seeded) database instead of running initdb,
 * every migration and the demo seed. The tarball is cached per key; the key is a hash of everything
 * that decides its content, so a changed migration, schema or demo source never meets an old one.
 */

export { projectRoot };

/** Where snapshots are kept unless told otherwise: the package's cache folder (not in the data folder). */
export const defaultSnapshotDir = path.join(projectRoot, 'node_modules', '.cache', 'dating-platform');

/** Bump when the way a snapshot is made changes without any of the hashed sources changing. */
const snapshotFormat = 2;

/** Sources whose content decides what a migrated and seeded database holds. */
export const snapshotSources = [
  'server/db/migrations',
  'server/db/schema',
  'server/modules/demo',
  'server/modules/regions',
  'contract/profiles.ts',
];

function filesUnder(base: string, relative: string): string[] {
  const absolute = path.join(base, relative);
  if (!existsSync(absolute)) return [];
  if (statSync(absolute).isDirectory()) {
    return readdirSync(absolute, { withFileTypes: true })
      .flatMap((entry) => filesUnder(base, path.join(relative, entry.name)))
      .sort();
  }
  // Tests and the demo photos (made after start, into storage) do not change the database's rows.
  if (/\.test\.ts$/.test(absolute) || absolute.endsWith('demo.media.ts')) return [];
  return [relative];
}

/** The cache key of a snapshot: migrations, schema, demo sources, the PGlite version and the seed size. */
export function snapshotKey(options: {
  demoProfiles: number | null;
  pgliteVersion: string;
  /** The project folder the sources are read from (tests point it elsewhere). */
  root?: string;
}): string {
  const base = options.root ?? projectRoot;
  const hash = createHash('sha256');
  hash.update(`format ${snapshotFormat}\npglite ${options.pgliteVersion}\n`);
  hash.update(`demo ${options.demoProfiles ?? 'none'}\n`);
  for (const file of snapshotSources.flatMap((source) => filesUnder(base, source))) {
    hash.update(`${file.split(path.sep).join('/')}\n`);
    hash.update(readFileSync(path.join(base, file)));
  }
  return hash.digest('hex').slice(0, 24);
}

const metaSchema = z.object({ key: z.string(), seededAt: z.iso.datetime() });
export type SnapshotMeta = { key: string; seededAt: Date };

function filesOf(dir: string, key: string) {
  return { tarball: path.join(dir, `pglite-${key}.tar`), meta: path.join(dir, `pglite-${key}.json`) };
}

/**
 * The snapshot kept under `key` (its tarball's path), or null (none, or made for another key). A
 * meta file that is there but cannot be read (it is written by a rename, so never half) raises.
 */
export function readSnapshot(dir: string, key: string): { tarball: string; meta: SnapshotMeta } | null {
  const files = filesOf(dir, key);
  try {
    const meta = metaSchema.safeParse(JSON.parse(readFileSync(files.meta, 'utf8')));
    if (!meta.success || meta.data.key !== key || !existsSync(files.tarball)) return null;
    return { tarball: files.tarball, meta: { key, seededAt: new Date(meta.data.seededAt) } };
  } catch (error) {
    // No snapshot of this key yet: the start seeds a fresh folder and keeps one.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`the start snapshot ${files.meta} cannot be read (remove it to seed afresh)`, {
      cause: error,
    });
  }
}

/** What a snapshot is made from: PGlite, in this thread or its own (server/db/pglite-thread.ts). */
type DumpableDatabase = { dumpDataDir(compression: 'none'): Promise<Blob> };

/**
 * Keeps the database's current state as the snapshot of `key`. Written to temporary files and
 * renamed, so instances starting at once never read half a file; the metadata comes last, so a
 * tarball without it is never used. Older snapshots in the folder are removed.
 */
export async function writeSnapshot(
  client: DumpableDatabase,
  dir: string,
  meta: SnapshotMeta,
): Promise<void> {
  // Kept as a plain tar: a start reads it at once instead of spending ~0.5 s on gunzip (decision 025).
  const dump = await client.dumpDataDir('none');
  mkdirSync(dir, { recursive: true });
  const files = filesOf(dir, meta.key);
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(files.tarball + suffix, Buffer.from(await dump.arrayBuffer()));
  renameSync(files.tarball + suffix, files.tarball);
  writeFileSync(
    files.meta + suffix,
    JSON.stringify({ key: meta.key, seededAt: meta.seededAt.toISOString() }),
  );
  renameSync(files.meta + suffix, files.meta);
  for (const name of readdirSync(dir)) {
    if (name.startsWith('pglite-') && !name.startsWith(`pglite-${meta.key}.`) && !name.endsWith('.tmp')) {
      rmSync(path.join(dir, name), { force: true });
    }
  }
}

/** A data folder PostgreSQL has already initialised (PG_VERSION is written by initdb). */
export function isInitialised(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'PG_VERSION'));
}

export type SnapshotOptions = {
  /** The folder the snapshots are kept in. */
  dir: string;
  /** The demo members the start seeds (part of the key), or null without the demo. */
  demoProfiles: number | null;
  /** The project folder whose sources make the key (the running project's by default). */
  root?: string;
};

/**
 * How a data folder was readied for PGlite. `existing`: it was initialised already. `restored`: a
 * fresh folder was filled from the snapshot made at `seededAt` (migrations and the demo in place).
 * `missing`: a fresh folder and no snapshot for `key`; once migrated and seeded it may be kept.
 */
export type PreparedFolder =
  | { kind: 'existing' }
  | { kind: 'restored'; seededAt: Date; tarball: string }
  | { kind: 'missing'; key: string; dir: string };

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest: unknown = JSON.parse(
    readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'),
  );
  return typeof manifest === 'object' && manifest !== null && 'version' in manifest
    ? String(manifest.version)
    : 'unknown';
}

/**
 * What `dataDir` starts from before PGlite opens it: an existing folder stays as it is; a fresh one
 * is filled from the snapshot of the current key when there is one (`snapshot` options given), by
 * fillDataFolder: in this thread (prepareDataFolder) or in the database's (server/db/pglite-thread.ts).
 */
export function planDataFolder(dataDir: string, snapshot?: SnapshotOptions): PreparedFolder {
  mkdirSync(dataDir, { recursive: true });
  if (!snapshot || isInitialised(dataDir)) return { kind: 'existing' };
  const key = snapshotKey({
    demoProfiles: snapshot.demoProfiles,
    pgliteVersion: pgliteVersion(),
    ...(snapshot.root ? { root: snapshot.root } : {}),
  });
  const found = readSnapshot(snapshot.dir, key);
  if (!found) return { kind: 'missing', key, dir: snapshot.dir };
  return { kind: 'restored', seededAt: found.meta.seededAt, tarball: found.tarball };
}

/** Writes a planned snapshot into a fresh data folder (nothing to do otherwise). */
export function fillDataFolder(dataDir: string, prepared: PreparedFolder): void {
  if (prepared.kind === 'restored') extractSnapshot(readFileSync(prepared.tarball), dataDir);
}

/** planDataFolder and fillDataFolder in this thread. */
export function prepareDataFolder(dataDir: string, snapshot?: SnapshotOptions): PreparedFolder {
  const prepared = planDataFolder(dataDir, snapshot);
  fillDataFolder(dataDir, prepared);
  return prepared;
}

/** A tar header's text field: up to its first NUL. */
function tarField(header: Buffer, start: number, length: number): string {
  const field = header.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.toString('utf8', 0, end === -1 ? length : end);
}

/**
 * Writes a snapshot (the tar PGlite's `dumpDataDir` makes: folders and plain files) into an
 * empty data folder, which then opens as an existing one. PGlite's own `loadDataDir` writes the
 * same 1,200 files through its emulated file system at ~1.5 s; this takes ~0.4 s (docs/decisions/024).
 * PG_VERSION, which marks a folder as initialised, is written last, so an extraction cut short never
 * passes for a database; the lock file of the process that made the snapshot is left out.
 */
export function extractSnapshot(archive: Buffer, dataDir: string): void {
  const root = path.resolve(dataDir);
  mkdirSync(root, { recursive: true });
  let version: Buffer | undefined;
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header[0] === 0) break;
    const name = tarField(header, 0, 100);
    const prefix = tarField(header, 345, 155);
    const size = Number.parseInt(tarField(header, 124, 12).trim() || '0', 8);
    const type = header[156] === 0 ? '0' : String.fromCharCode(header[156] ?? 48);
    const relative = path.posix.normalize(`/${prefix ? `${prefix}/${name}` : name}`).slice(1);
    const target = path.join(root, relative);
    offset += 512;
    const body = archive.subarray(offset, offset + size);
    offset += Math.ceil(size / 512) * 512;
    if (!Number.isFinite(size) || body.length !== size || !target.startsWith(root)) {
      throw new Error('the PGlite snapshot is damaged');
    }
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0' && relative === 'PG_VERSION') version = Buffer.from(body);
    else if (type === '0' && relative !== 'postmaster.pid') writeFileSync(target, body);
  }
  if (!version) throw new Error('the PGlite snapshot holds no database');
  writeFileSync(path.join(root, 'PG_VERSION'), version);
}
