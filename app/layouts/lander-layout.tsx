import { Link, Outlet, useMatches } from 'react-router';
import { SiteEntryWarning } from '#app/components/site-entry-warning.tsx';
import { SiteFooter } from '#app/components/site-footer.tsx';
import { isBareRoute } from '#app/lib/layout-handle.ts';
import { useRootData } from '#app/lib/root-data.ts';

/**
 * Lander layout (spec §2): a logo bar and the footer around an ad landing page. A lander that
 * exports `handle = { layout: 'bare' }` gets only itself: no shell, no shell stylesheet (the root
 * leaves them out too); it renders its own header, footer and entry notice.
 */
export default function LanderLayout() {
  const { settings } = useRootData();
  const bare = isBareRoute(useMatches());
  if (bare) return <Outlet />;
  return (
    <>
      <header className="top-bar">
        <div className="top-bar-inner">
          <Link to="/" className="brand-logo">
            {settings.name}
          </Link>
        </div>
      </header>
      <main id="main" className="flex-grow-1">
        <Outlet />
      </main>
      <SiteFooter />
      <SiteEntryWarning layout="lander" />
    </>
  );
}
