import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Marks the API calls a page's loaders make in-process (web/ssr.ts apiCallerFor), so the access log
 * writes one line for the page, not one more per call it made. A flag in async context, not a
 * header: a client cannot send it to keep its requests out of the log.
 */
const inProcess = new AsyncLocalStorage<true>();

export function runInProcess<T>(call: () => Promise<T>): Promise<T> {
  // Awaited inside the scope: inject() answers a lazy chain that starts on `then`.
  return inProcess.run(true, async () => await call());
}

export function isInProcessCall(): boolean {
  return inProcess.getStore() === true;
}
