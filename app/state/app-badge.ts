import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { reportCaught } from '#app/lib/report-caught.ts';
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
    const badge = total > 0 ? appBadge.setAppBadge?.(total) : appBadge.clearAppBadge?.();
    void badge?.catch(reportUnlessRefused);
  }, [total, location.key]);
}

/** The browser's refusal (not installed, badges not allowed) is the answer; anything else is reported. */
function reportUnlessRefused(error: unknown): void {
  const refused =
    error instanceof DOMException &&
    ['NotAllowedError', 'NotSupportedError', 'InvalidStateError'].includes(error.name);
  if (!refused) reportCaught('setting the app badge', error);
}
