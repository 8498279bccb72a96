/**
 * The same scenarios straight to PostgreSQL and through PgBouncer in transaction mode, one after the
 * other in one sitting (the machine's moment shared as far as it can be), and their ratio; the goal
 * is the pooled run within 10 % of the direct one (docs/decisions/048).
 *
 *   npm run bench:pooler                      user and chats (the default)
 *   npm run bench:pooler -- user chats live   these scenarios (any of npm run bench's, and --quick)
 *
 * The pooler: BENCH_POOLER_URL, else CI's PgBouncer on 127.0.0.1:6432 when it answers, else one
 * started here on 127.0.0.1:5445 from a copy of .ci/pgbouncer.ini and stopped at the end.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { projectRoot } from '#server/lib/project-root.ts';

const resultsFile = path.join(projectRoot, 'bench', 'results', 'latest.json');
const rowsSchema = z.object({
  date: z.string(),
  machine: z.object({ cpu: z.string(), loadAverage: z.number() }),
  rows: z.array(z.object({ scenario: z.string(), rps: z.number().nullable(), p99: z.number().nullable() })),
});

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function ownPgbouncer(): Promise<{ url: string; stop(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-pgbouncer-'));
  const ini = readFileSync(path.join(projectRoot, '.ci', 'pgbouncer.ini'), 'utf8')
    .replace(/^listen_port = .*/m, 'listen_port = 5445')
    .replaceAll('/tmp/pgbouncer-ci/', `${dir}/`);
  writeFileSync(path.join(dir, 'pgbouncer.ini'), ini);
  writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
  spawnSync('chown', ['-R', 'postgres', dir]);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(
    'pgbouncer',
    [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')],
    {
      stdio: 'inherit',
    },
  );
  for (let tries = 0; tries < 100 && !(await answers(5445)); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: 'postgres://postgres@127.0.0.1:5445/postgres',
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function runBench(args: string[], env: Record<string, string>): z.infer<typeof rowsSchema> {
  const run = spawnSync('node', ['--import', 'tsx', 'bench/run.ts', ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
    cwd: projectRoot,
  });
  if (run.status !== 0) throw new Error(`bench/run.ts ${args.join(' ')} failed (${run.status})`);
  return rowsSchema.parse(JSON.parse(readFileSync(resultsFile, 'utf8')));
}

const given = process.argv.slice(2);
const args = given.some((arg) => !arg.startsWith('--')) ? given : [...given, 'user', 'chats'];
let pooler: { url: string; stop(): void } | null = null;
if (process.env.BENCH_POOLER_URL) pooler = { url: process.env.BENCH_POOLER_URL, stop() {} };
else if (await answers(6432)) pooler = { url: 'postgres://postgres@127.0.0.1:6432/postgres', stop() {} };
else pooler = await ownPgbouncer();
try {
  const direct = runBench(args, {});
  const pooled = runBench(args, { BENCH_POOLER_URL: pooler.url });
  const lines = [
    `direct ${direct.date} (load ${direct.machine.loadAverage}), PgBouncer ${pooled.date} (load ${pooled.machine.loadAverage}), ${direct.machine.cpu}`,
    '',
    '| scenario | direct req/s | PgBouncer req/s | ratio | direct p99 ms | PgBouncer p99 ms | within 10 % |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of direct.rows) {
    const other = pooled.rows.find((candidate) => candidate.scenario === row.scenario);
    if (!other || row.rps === null || other.rps === null) continue;
    const ratio = other.rps / row.rps;
    lines.push(
      `| ${row.scenario} | ${row.rps.toFixed(0)} | ${other.rps.toFixed(0)} | ${ratio.toFixed(2)} | ${row.p99 ?? '—'} | ${other.p99 ?? '—'} | ${ratio >= 0.9 ? 'yes' : '**no**'} |`,
    );
  }
  console.log(lines.join('\n'));
  writeFileSync(path.join(projectRoot, 'bench', 'results', 'pooler.md'), `${lines.join('\n')}\n`);
} finally {
  pooler.stop();
}
