import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Marks the API calls a page's loaders make in-process (web/ssr.ts apiCallerFor), so the access log
 * writes one line for the page, not one more per call it made. A flag in async context, not a
 * header: a client cannot send it to keep its requests out of the log.
 */
const inProcess = new AsyncLocalStorage<{ pageUrl: string }>();

/** `pageUrl`: the page whose loader makes the call (an API call may be served as that page is). */
export function runInProcess<T>(call: () => Promise<T>, pageUrl: string): Promise<T> {
  // Awaited inside the scope: inject() answers a lazy chain that starts on `then`.
  return inProcess.run({ pageUrl }, async () => await call());
}

export function isInProcessCall(): boolean {
  return inProcess.getStore() !== undefined;
}

/** The URL of the page whose loader made this in-process call; undefined for a call from outside. */
export function inProcessPageUrl(): string | undefined {
  return inProcess.getStore()?.pageUrl;
}
