import { useEffect, useRef } from 'react';
import { useRevalidator } from 'react-router';
import { useLiveConnection } from './live-connection.tsx';

/**
 * Keeps a page's likes (its loader's data) following the live events: a new like or a match, and
 * after a reconnect (`ready`) whatever came meanwhile, reloads them, so the Likes tabs never show
 * "no matches yet" beside a match that exists.
 */
export function useLiveLikes(): void {
  const { socket } = useLiveConnection();
  const revalidator = useRevalidator();
  const reload = useRef(revalidator.revalidate);
  reload.current = revalidator.revalidate;
  useEffect(
    () =>
      socket?.subscribe((event) => {
        if (event.type === 'like' || event.type === 'match' || event.type === 'ready') void reload.current();
      }),
    [socket],
  );
}
