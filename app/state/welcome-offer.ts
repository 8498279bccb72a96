import { useEffect, useState } from 'react';
import { useOptionalRootData } from '#app/lib/root-data.ts';
import type { DiscountCode } from '#contract/payments.ts';
import { useOptionalSession } from './session.tsx';

/**
 * True once `expires` has passed: one timer to the end, not a tick a second. The first render is
 * the same on the server and in the browser: it compares with `renderedAt` (the loader's clock).
 */
function useEnded(expires: string | null, renderedAt: number | undefined): boolean {
  const [ended, setEnded] = useState(
    () => expires === null || (renderedAt !== undefined && Date.parse(expires) <= renderedAt),
  );
  useEffect(() => {
    if (expires === null) {
      setEnded(true);
      return;
    }
    const left = Date.parse(expires) - Date.now();
    setEnded(left <= 0);
    if (left <= 0) return;
    // setTimeout holds at most 2^31-1 ms; the welcome window is 4 hours.
    const timer = setTimeout(() => setEnded(true), Math.min(left, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [expires]);
  return ended;
}

/**
 * The welcome code while it runs for the member signed in now: null for a visitor, once the member
 * has paid (the live session says so without a reload), after logging out, and from its end on.
 */
export function useWelcomeOffer(): DiscountCode | null {
  const data = useOptionalRootData();
  const session = useOptionalSession();
  const welcome = data?.welcome ?? null;
  const ended = useEnded(welcome?.expires ?? null, data?.renderedAt);
  const user = session ? session.user : (data?.user ?? null);
  if (!welcome || ended || !user || user.paid_user || user.id !== data?.user?.id) return null;
  return welcome;
}
