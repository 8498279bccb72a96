/**
 * Several app instances behind one address: Node's cluster hands the connections of one port to
 * BENCH_WORKERS processes (default 2), which share PostgreSQL and Redis as separate servers would.
 */
import cluster from 'node:cluster';

if (cluster.isPrimary) {
  const workers = Number(process.env.BENCH_WORKERS ?? 2);
  for (let i = 0; i < workers; i++) cluster.fork();
  let stopping = false;
  cluster.on('exit', (worker, code) => {
    if (!stopping) console.error(`worker ${worker.process.pid} exited (${code})`);
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
  process.on('SIGTERM', () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  });
} else {
  // What `npm start` runs: the server bundle (bench/run.ts makes it again before measuring).
  await import(new URL('../build/app-server/main.mjs', import.meta.url).href);
}
