import { useCallback, useEffect, useState } from 'react';

/** Dismissal flags of spec §3, stored as unix timestamps (seconds) in localStorage. */
export const dismissalKeys = [
  'hide-enrich-alert',
  'hide-push-notification-alert',
  'hide-disabled-notifications-alert',
  'hide-time-bonus-modal',
  'seen-free-messages-used-up',
] as const;
export type DismissalKey = (typeof dismissalKeys)[number];

export function readDismissal(key: DismissalKey): number | null {
  try {
    const value = window.localStorage.getItem(key);
    const seconds = value === null ? Number.NaN : Number(value);
    return Number.isFinite(seconds) ? seconds : null;
  } catch {
    // expected: no storage (private mode): nothing was dismissed.
    return null;
  }
}

export function storeDismissal(key: DismissalKey, now = Date.now()): void {
  try {
    window.localStorage.setItem(key, String(Math.floor(now / 1000)));
  } catch {
    // expected: private mode without storage: the alert comes back next time, which is harmless.
  }
}

/**
 * Whether an alert was dismissed. Until hydration it counts as dismissed, so the server never
 * renders an alert that the browser would remove a moment later.
 */
export function useDismissal(key: DismissalKey): { dismissed: boolean; dismiss: () => void } {
  const [dismissed, setDismissed] = useState(true);
  useEffect(() => {
    setDismissed(readDismissal(key) !== null);
  }, [key]);
  const dismiss = useCallback(() => {
    storeDismissal(key);
    setDismissed(true);
  }, [key]);
  return { dismissed, dismiss };
}
