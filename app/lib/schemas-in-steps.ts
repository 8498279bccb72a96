/** Resolves in a new task: the browser gets a turn (input, paint) before the caller goes on. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

let loaded: Promise<void> | undefined;

/**
 * zod and the contract's schemas take some 100–150 ms of module evaluation on Lighthouse's slowed
 * CPU, all in one task when imported at once (zod alone about half). Imported a group at a time with
 * a task between, no single step blocks the page for long, and a tap made meanwhile is answered
 * (Total Blocking Time). In the browser only: a server process has them loaded already.
 */
export function loadSchemasInSteps(): Promise<void> {
  if (typeof window === 'undefined') return Promise.resolve();
  loaded ??= (async () => {
    const steps = [
      () => import('zod'),
      () => import('#contract/common.ts'),
      () => import('#contract/profiles.ts'),
      () => import('#contract/chats.ts'),
    ];
    for (const step of steps) {
      await step();
      await nextTask();
    }
  })();
  // A failed step (offline, a deploy replaced a chunk) is tried again by the next caller.
  loaded.catch(() => {
    // expected: the caller awaits the same promise and gets the error; it is only not kept.
    loaded = undefined;
  });
  return loaded;
}
