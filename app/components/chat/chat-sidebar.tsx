import { Link } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ChatListItem } from '#contract/chats.ts';
import { ChatList } from './chat-list.tsx';

/** The conversation list beside the thread, from 992 px. */
export function ChatSidebar({ chats, activeId }: { chats: ChatListItem[]; activeId: number | undefined }) {
  const { t } = useTranslation();
  return (
    <nav
      className="d-none d-lg-flex flex-column border-end overflow-auto flex-shrink-0"
      style={{ width: 340 }}
      aria-label={t('chat:sidebar')}
    >
      <h2 className="h5 px-3 pt-3 mb-2">
        <Link to="/chats" className="text-body text-decoration-none">
          {t('page.chats')}
        </Link>
      </h2>
      <ChatList chats={chats} {...(activeId !== undefined ? { activeId } : {})} />
    </nav>
  );
}
