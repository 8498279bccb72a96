import { Outlet } from 'react-router';
import { SignupModalProvider } from '../components/signup-modal.tsx';
import { SiteEntryWarning } from '../components/site-entry-warning.tsx';

/** Empty layout (spec §2): the page alone. */
export default function EmptyLayout() {
  return (
    <SignupModalProvider>
      <main id="main" className="flex-grow-1">
        <Outlet />
      </main>
      <SiteEntryWarning layout="empty" />
    </SignupModalProvider>
  );
}
