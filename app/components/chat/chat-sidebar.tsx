import { ArrowLeft } from 'react-bootstrap-icons';
import { Link } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ChatListItem } from '#contract/chats.ts';
import type { Profile } from '#contract/profiles.ts';
import { ChatList } from './chat-list.tsx';
import { NewMatchesRow } from './new-matches-row.tsx';

/**
 * The conversation list beside the thread, from 992 px, with the new matches above it as on the
 * Chats page. The chat layout is bare (no top bar), so its head holds the way back to the search,
 * where the members' area starts.
 */
export function ChatSidebar({
  chats,
  matches,
  activeId,
}: {
  chats: ChatListItem[];
  matches: Profile[];
  activeId: number | undefined;
}) {
  const { t } = useTranslation();
  return (
    <nav
      className="d-none d-lg-flex flex-column border-end overflow-auto flex-shrink-0 bg-body"
      style={{ width: 340 }}
      aria-label={t('chat:sidebar')}
    >
      <div className="chat-sidebar-head">
        <Link to="/members" className="chat-back-to-search" data-testid="back-to-search">
          <ArrowLeft aria-hidden="true" size={18} />
          {t('chat:backToSearch')}
        </Link>
      </div>
      <h2 className="h5 px-3 pt-3 mb-2">
        <Link to="/chats" className="text-body text-decoration-none">
          {t('page.chats')}
        </Link>
      </h2>
      <NewMatchesRow matches={matches} className="px-3 pt-3" />
      <ChatList chats={chats} {...(activeId !== undefined ? { activeId } : {})} />
    </nav>
  );
}
