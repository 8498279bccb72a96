import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export type Started = { process: ChildProcess; port: number; stop(): Promise<void> };

/** Answers 200 within `timeoutMs`, or throws (with the process's last output). */
export async function waitForOk(
  url: string,
  timeoutMs: number,
  output?: () => string,
  child?: ChildProcess,
): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(
        `the process behind ${url} exited (${child.exitCode ?? child.signalCode})\n${output?.() ?? ''}`,
      );
    }
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms\n${output?.() ?? ''}`);
}

/**
 * Starts a Node process running a TypeScript file of the project (through tsx), and stops it with
 * SIGTERM (SIGKILL after 10 s). Its output is kept (the last 8 KB) for error messages.
 */
export function startNode(
  file: string,
  env: Record<string, string>,
  options: { args?: string[]; nodeArgs?: string[] } = {},
): { child: ChildProcess; output(): string; stop(): Promise<void> } {
  const child = spawn(
    process.execPath,
    // TypeScript through tsx; the bundled server (build/app-server/main.mjs) is plain JavaScript.
    [
      ...(options.nodeArgs ?? []),
      ...(file.endsWith('.mjs') ? [] : ['--import', 'tsx']),
      file,
      ...(options.args ?? []),
    ],
    {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8192);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident memory of a process in bytes (Linux /proc), or NaN. */
export function rssOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** A floor server (bench/floors.ts): `hello` or `pg`, on `port`. */
export async function startFloor(kind: 'hello' | 'pg', port: number, databaseUrl: string): Promise<Started> {
  const started = startNode(
    'bench/floors.ts',
    { BENCH_DATABASE_URL: databaseUrl },
    { args: [kind, String(port)] },
  );
  await waitForOk(`http://127.0.0.1:${port}/`, 60_000, started.output, started.child);
  return { process: started.child, port, stop: started.stop };
}

/**
 * The pages come from build/ (npm run build). Someone may be rebuilding it at this moment on a shared
 * machine: wait (up to 5 minutes) until the server build is there again.
 */
export async function waitForBuild(): Promise<void> {
  const files = ['server/index.js', 'app-server/main.mjs'].map((file) =>
    path.join(projectRoot, 'build', file),
  );
  const file = files.join(' and ');
  const deadline = performance.now() + 300_000;
  while (!files.every((each) => existsSync(each))) {
    if (performance.now() > deadline) throw new Error(`No build at ${file}: run npm run build first`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

export type AppEnv = {
  databaseUrl?: string;
  redisUrl?: string;
  redisPrefix?: string;
  dataDir: string;
  demoProfiles?: number;
};

/**
 * The server bundle made again from the current sources (scripts/build-server.mjs, under a second):
 * the bench measures what `npm start` runs, not the TypeScript sources through tsx's loader (whose
 * compiled sources and source maps took ~30 MB of each instance's heap).
 */
export function bundleServer(): void {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: projectRoot, stdio: 'ignore' });
}

/**
 * The app in production mode (the server bundle, the built pages in build/), or with `workers` > 1
 * several instances on one port (bench/cluster.ts, Node's cluster). Rate limits off (RATE_LIMITS_OFF).
 */
export async function startApp(
  port: number,
  env: AppEnv,
  workers = 1,
  nodeArgs: string[] = [],
): Promise<Started & { ms: number }> {
  mkdirSync(env.dataDir, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    await waitForBuild();
    const started = startNode(
      workers > 1 ? 'bench/cluster.ts' : 'build/app-server/main.mjs',
      {
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: env.dataDir,
        LOG_LEVEL: 'warn',
        RATE_LIMITS_OFF: '1',
        DEMO_PROFILES: String(env.demoProfiles ?? 320),
        BENCH_WORKERS: String(workers),
        ...(env.databaseUrl ? { DATABASE_URL: env.databaseUrl, DATABASE_POOL_SIZE: '10' } : {}),
        ...(env.databaseUrl && process.env.BENCH_POOLER_URL
          ? throughPooler(env.databaseUrl, process.env.BENCH_POOLER_URL)
          : {}),
        ...(env.redisUrl ? { REDIS_URL: env.redisUrl } : {}),
        ...(env.redisPrefix ? { REDIS_PREFIX: env.redisPrefix } : {}),
      },
      // BENCH_APP_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": a profile of the app under
      // test, written when it stops.
      { nodeArgs: [...nodeArgs, ...(process.env.BENCH_APP_NODE_ARGS?.split(' ').filter(Boolean) ?? [])] },
    );
    try {
      const ms = await waitForOk(
        `http://127.0.0.1:${port}/api/health/ready`,
        180_000,
        started.output,
        started.child,
      );
      return { process: started.child, port, stop: started.stop, ms };
    } catch (error) {
      await started.stop();
      // The build was being replaced while the app loaded it: wait for the new one and try again.
      if (attempt >= 5 || !started.output().includes('No build at')) throw error;
    }
  }
}

/**
 * BENCH_POOLER_URL (a transaction-mode PgBouncer in front of the bench's PostgreSQL, e.g.
 * postgres://postgres@127.0.0.1:6432/postgres): the app under test reaches its database through it
 * with DATABASE_POOLER=transaction, and migrates on the direct URL (docs/decisions/048).
 */
function throughPooler(directUrl: string, poolerUrl: string): Record<string, string> {
  const pooled = new URL(poolerUrl);
  pooled.pathname = new URL(directUrl).pathname;
  return { DATABASE_URL: pooled.toString(), DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: directUrl };
}
