import { Outlet } from 'react-router';
import { SignupModalProvider } from '#app/components/signup-modal.tsx';
import { SiteEntryWarning } from '#app/components/site-entry-warning.tsx';

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
