import { Worker } from 'node:worker_threads';
import type { ModelFolders } from './screening-models.ts';
import type { ScreeningScores } from './screening-rules.ts';

/** What screens a photo's bytes: the models' thread in the server, a stand-in in tests. */
export type Screener = {
  screen(image: Buffer): Promise<ScreeningScores>;
  close(): Promise<void>;
};

export type ScreenerRequest = { id: number; image: Uint8Array };
export type ScreenerReply =
  | { id: number; ok: true; scores: ScreeningScores }
  | { id: number; ok: false; error: string };

type Pending = { resolve(scores: ScreeningScores): void; reject(error: Error): void };

export class ScreeningFailedError extends Error {
  override name = 'ScreeningFailedError';
}

/**
 * The screening models in a worker thread of their own (docs/decisions/045): a photo takes a few
 * hundred milliseconds of CPU, which on the event loop would stall every request meanwhile. The
 * thread starts at the first photo and loads the models then, once (about 0.5–7 s); photos wait
 * their turn in its queue. A thread that dies fails what it held and starts afresh at the next photo.
 */
export class ThreadScreener implements Screener {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly folders: ModelFolders = {}) {}

  private start(): Worker {
    const workerData: { folders: ModelFolders } = { folders: this.folders };
    let worker: Worker;
    if (!import.meta.url.endsWith('.ts')) {
      // The bundled server has the thread's entry built beside its own (scripts/build-server.mjs).
      worker = new Worker(new URL('./screener.worker.mjs', import.meta.url), { workerData });
    } else {
      // The sources run through tsx, which Node 20 does not carry into a worker thread.
      const tsx = import.meta.resolve('tsx/esm/api');
      const entry = new URL('./screener.worker.ts', import.meta.url).href;
      const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
      worker = new Worker(bootstrap, { workerData, eval: true });
    }
    // An idle thread never keeps the process alive; a photo in flight keeps it referenced.
    worker.unref();
    worker.on('message', (reply: ScreenerReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiting.resolve(reply.scores);
      else waiting.reject(new ScreeningFailedError(reply.error));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(new ScreeningFailedError(error.message));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the screening thread stopped (exit code ${code})`)));
    return worker;
  }

  screen(image: Buffer): Promise<ScreeningScores> {
    this.worker ??= this.start();
    const worker = this.worker;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      // A copy the thread owns: the caller's buffer may be a slice of a pooled one.
      const copy = new Uint8Array(image);
      const request: ScreenerRequest = { id, image: copy };
      worker.postMessage(request, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}
