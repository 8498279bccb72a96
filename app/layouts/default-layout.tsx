import { Outlet } from 'react-router';
import { AutoLikeModal } from '../components/auto-like-modal.tsx';
import { SignupModalProvider } from '../components/signup-modal.tsx';
import { SiteEntryWarning } from '../components/site-entry-warning.tsx';
import { Disclaimer, SiteFooter } from '../components/site-footer.tsx';
import { SkipLink } from '../components/skip-link.tsx';
import { TimeBonusModal } from '../components/time-bonus.tsx';
import { TopBar } from '../components/top-bar.tsx';
import { WarningBanners } from '../components/warning-banners.tsx';

/** Default layout (spec §2): top navigation, warning banners, footer, disclaimer. */
export default function DefaultLayout() {
  return (
    <SignupModalProvider>
      <SkipLink />
      <TopBar />
      <WarningBanners />
      <main id="main" tabIndex={-1} className="flex-grow-1">
        <Outlet />
      </main>
      <SiteFooter />
      <Disclaimer />
      <SiteEntryWarning layout="default" />
      <AutoLikeModal />
      <TimeBonusModal />
    </SignupModalProvider>
  );
}
