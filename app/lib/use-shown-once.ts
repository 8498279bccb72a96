import { useState } from 'react';

/**
 * Whether a dialog has been shown at least once: mount react-bootstrap's `Modal` or `Offcanvas`
 * only from then on (and keep it, so its closing transition still plays).
 *
 * A closed react-bootstrap dialog is not free: on mount it hands its handle over through a ref
 * callback that sets state, and React treats state set while it commits as urgent. At hydration
 * that turned the page's first commit into a second, synchronous render pass (React cannot split
 * it): ~500 ms of one task on Lighthouse's slowed phone CPU on `/members`, with five closed dialogs
 * on the page (docs/decisions/016, addendum "nothing synchronous at hydration").
 */
export function useShownOnce(show: boolean): boolean {
  const [shown, setShown] = useState(show);
  if (show && !shown) setShown(true);
  return shown || show;
}
