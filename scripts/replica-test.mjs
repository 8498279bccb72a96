#!/usr/bin/env node
// The read replicas' integration tests (docs/decisions/056) against a real streaming standby: a
// temporary primary cluster on 127.0.0.1:5440 and its standby, made with `pg_basebackup -R`, on
// 5441, both in a temporary folder; the tests in tests/replica/ run against them; then both stop
// and the folder goes. The machine's own PostgreSQL (5432) is left as it is. Runs as root (the
// clusters then run as the postgres user) or as any user who may run PostgreSQL.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const primaryPort = Number(process.env.REPLICA_PRIMARY_PORT ?? 5440);
const standbyPort = Number(process.env.REPLICA_STANDBY_PORT ?? 5441);

function postgresBin() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  const found = versions
    .map((version) => path.join(root, version, 'bin'))
    .find((dir) => existsSync(path.join(dir, 'pg_ctl')));
  if (!found) throw new Error('No PostgreSQL binaries under /usr/lib/postgresql/*/bin');
  return found;
}

const bin = postgresBin();
const asRoot = process.getuid?.() === 0;
// PostgreSQL refuses to run as root: the clusters run as the postgres user.
const runAs = asRoot ? 'postgres' : null;
function pg(tool, args, options = {}) {
  const command = path.join(bin, tool);
  const [file, argv] = runAs ? ['runuser', ['-u', runAs, '--', command, ...args]] : [command, args];
  return execFileSync(file, argv, { stdio: options.quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
}

const dir = mkdtempSync(path.join(tmpdir(), 'replica-test-'));
chmodSync(dir, 0o777);
const primary = path.join(dir, 'primary');
const standby = path.join(dir, 'standby');
const started = [];
const t0 = Date.now();

function stopAll() {
  for (const data of started.reverse()) {
    // The tests stop the standby themselves: `pg_ctl status` answers 3 for a stopped cluster.
    const state = spawnSync(runAs ? 'runuser' : path.join(bin, 'pg_ctl'), [
      ...(runAs ? ['-u', runAs, '--', path.join(bin, 'pg_ctl')] : []),
      'status',
      '-D',
      data,
    ]);
    if (state.status === 3) continue;
    try {
      pg('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w'], { quiet: true });
    } catch (error) {
      // Already stopped (the tests stop the standby): nothing else to do with it.
      console.log(`${path.basename(data)}: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

let status = 1;
try {
  console.log(`PostgreSQL binaries: ${bin}${runAs ? ` (clusters run as ${runAs})` : ''}; folder ${dir}`);
  pg('initdb', ['-D', primary, '-A', 'trust', '-U', 'postgres', '--no-sync'], { quiet: true });
  // initdb's pg_hba.conf lets loopback replication connections in with trust already; written here
  // so the test does not depend on that default.
  appendFileSync(path.join(primary, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\n');
  appendFileSync(
    path.join(primary, 'postgresql.conf'),
    [
      '',
      `port = ${primaryPort}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'max_wal_senders = 4',
      // A test cluster: no flush waits for the virtual disk.
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'shared_buffers = 32MB',
      'max_connections = 40',
      '',
    ].join('\n'),
  );
  pg('pg_ctl', ['start', '-D', primary, '-l', path.join(dir, 'primary.log'), '-w', '-s']);
  started.push(primary);
  pg('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    standby,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  appendFileSync(path.join(standby, 'postgresql.auto.conf'), `port = ${standbyPort}\n`);
  pg('pg_ctl', ['start', '-D', standby, '-l', path.join(dir, 'standby.log'), '-w', '-s']);
  started.push(standby);
  console.log(`primary on ${primaryPort}, standby on ${standbyPort}, ready in ${Date.now() - t0} ms`);
  writeFileSync(path.join(dir, 'ready'), '');

  const run = spawnSync(
    'npx',
    ['vitest', 'run', '--config', 'tests/replica/vitest.config.ts', ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        REPLICA_PRIMARY_URL: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
        REPLICA_STANDBY_URL: `postgres://postgres@127.0.0.1:${standbyPort}/postgres`,
        REPLICA_STANDBY_DATA: standby,
        REPLICA_PG_CTL: path.join(bin, 'pg_ctl'),
        REPLICA_RUN_AS: runAs ?? '',
      },
    },
  );
  status = run.status ?? 1;
} finally {
  stopAll();
  console.log(
    `replica test: ${status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}
process.exit(status);
