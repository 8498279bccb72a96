import type { ReactNode } from 'react';
import { isRouteErrorResponse, Outlet } from 'react-router';
import { AutoLikeModal } from '#app/components/auto-like-modal.tsx';
import { ErrorScreen } from '#app/components/error-screen.tsx';
import { SignupModalProvider } from '#app/components/signup-modal.tsx';
import { SiteEntryWarning } from '#app/components/site-entry-warning.tsx';
import { Disclaimer, SiteFooter } from '#app/components/site-footer.tsx';
import { SkipLink } from '#app/components/skip-link.tsx';
import { TimeBonusModal } from '#app/components/time-bonus.tsx';
import { TabBar, TopBar } from '#app/components/top-bar.tsx';
import { WarningBanners } from '#app/components/warning-banners.tsx';
import { useSession } from '#app/state/session.tsx';
import type { Route } from './+types/default-layout';

/** The frame: top bar, one banner, the page, footer and disclaimer; on a phone the members' tab bar. */
export function Shell({ children, modals = true }: { children: ReactNode; modals?: boolean }) {
  const { user } = useSession();
  return (
    <SignupModalProvider>
      <div className={`d-flex flex-column flex-grow-1${user ? ' has-tab-bar' : ''}`}>
        <SkipLink />
        <TopBar />
        <WarningBanners />
        <main id="main" tabIndex={-1} className="flex-grow-1">
          {children}
        </main>
        <SiteFooter />
        <Disclaimer />
      </div>
      {user && <TabBar />}
      {modals && (
        <>
          <SiteEntryWarning layout="default" />
          <AutoLikeModal />
          <TimeBonusModal />
        </>
      )}
    </SignupModalProvider>
  );
}

/** Default layout (spec §2). */
export default function DefaultLayout() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** A 404 or 500 below this layout (wrong id, unknown address) still shows the navigation. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    isRouteErrorResponse(error) && typeof error.data === 'string' && error.data ? error.data : undefined;
  return (
    <Shell modals={false}>
      <ErrorScreen status={status} {...(message ? { message } : {})} />
    </Shell>
  );
}
