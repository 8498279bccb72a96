import type { EventBus } from './event-bus.ts';

/** Every instance listens here: the public pages it keeps (server/web/page-cache.ts) are dropped. */
export const publicPagesChangedChannel = 'public-pages.changed';

/** This process's page caches: dropped at once, before the announcement travels. */
const localDrops = new Set<() => void>();

export function onPublicPagesChanged(drop: () => void): () => void {
  localDrops.add(drop);
  return () => localDrops.delete(drop);
}

/**
 * What visitors see may have changed: a back-office write (a site, a fictional profile, a text, a
 * ban), or a write of a member whose profile is or becomes public. Kept pages go here at once, and
 * on every other instance over the bus.
 */
export async function announcePublicPagesChanged(bus: EventBus): Promise<void> {
  for (const drop of localDrops) drop();
  await bus.publish(publicPagesChangedChannel, {});
}
