import { Link, Outlet } from 'react-router';
import { SiteEntryWarning } from '../components/site-entry-warning.tsx';
import { SiteFooter } from '../components/site-footer.tsx';
import { useRootData } from '../lib/root-data.ts';

/** Lander layout (spec §2): a logo bar and the footer around an ad landing page. */
export default function LanderLayout() {
  const { settings } = useRootData();
  return (
    <>
      <header className="border-bottom bg-white">
        <div className="container py-2">
          <Link to="/" className="navbar-brand fw-bold text-primary fs-4">
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
