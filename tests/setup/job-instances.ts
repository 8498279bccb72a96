import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { projectRoot } from '../../server/lib/project-root.ts';
import { testPooler } from './test-database.ts';

export type Said = { ready?: string; holding?: string; caught?: string; error?: string };

/** One job-runner instance in a child process (tests/setup/job-worker-child.ts), and what it said. */
export function startJobInstance(
  databaseUrl: string,
  options: { instance: string; queue: string; leaseMs: number; holdAfter?: number },
) {
  const { instance, queue, leaseMs, holdAfter } = options;
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(projectRoot, 'tests/setup/job-worker-child.ts')],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        JOB_DATABASE_URL: databaseUrl,
        JOB_INSTANCE: instance,
        JOB_QUEUE: queue,
        JOB_LEASE_MS: String(leaseMs),
        JOB_POOLER: testPooler.pooler,
        ...(holdAfter === undefined ? {} : { JOB_HOLD_AFTER: String(holdAfter) }),
      },
    },
  );
  const said: Said[] = [];
  const stderr: string[] = [];
  const waiters: { test: (line: Said) => boolean; resolve: (line: Said) => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (text) => {
    const line = JSON.parse(text) as Said;
    said.push(line);
    for (const waiter of waiters.filter((w) => w.test(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = once(child, 'exit');
  return {
    child,
    said,
    stderr,
    exited,
    /** Resolves on the first line (past or coming) that passes `test`. */
    saying(test: (line: Said) => boolean): Promise<Said> {
      const seen = said.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ test, resolve });
        exited.then(() => reject(new Error(`${instance} exited: ${stderr.join('')}`)));
      });
    },
  };
}
