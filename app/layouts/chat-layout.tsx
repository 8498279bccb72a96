import { Outlet } from 'react-router';
import { SiteEntryWarning } from '#app/components/site-entry-warning.tsx';

/** Chat layout (spec §2): bare, the conversation fills the screen. */
export default function ChatLayout() {
  return (
    <>
      <main id="main" className="chat-layout">
        <Outlet />
      </main>
      <SiteEntryWarning layout="chat" />
    </>
  );
}
