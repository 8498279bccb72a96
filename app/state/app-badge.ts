import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { titleWithCount } from '#app/lib/shell-rules.ts';

type BadgeNavigator = Navigator & {
  setAppBadge?: (count: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
};

/** The count of what is new in the page title and, for an installed app, on its icon. */
export function useTitleAndAppBadge(total: number) {
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the title changes with every navigation.
  useEffect(() => {
    document.title = titleWithCount(document.title, total);
    const appBadge = navigator as BadgeNavigator;
    // The badge of an installed app only: elsewhere the browser refuses it, which changes nothing.
    if (total > 0)
      void appBadge.setAppBadge?.(total).catch(() => {
        // expected: not installed, or badges not allowed.
      });
    else
      void appBadge.clearAppBadge?.().catch(() => {
        // expected: not installed, or badges not allowed.
      });
  }, [total, location.key]);
}
