import { Trash } from 'react-bootstrap-icons';
import { Link } from 'react-router';
import { useDates } from '#app/lib/format.ts';
import { badgeLabel } from '#app/lib/shell-rules.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ChatListItem, Message } from '#contract/chats.ts';

function preview(
  message: Message | null,
  t: (key: string, params?: Record<string, unknown>) => string,
): string {
  // A conversation opened from a new match, listed before its first message.
  if (!message) return t('chat:list.noMessages');
  const body =
    message.kind === 'text'
      ? (message.text ?? '')
      : message.kind === 'photo'
        ? t('chat:list.photo')
        : t('chat:list.gift');
  return message.mine ? t('chat:list.you', { text: body }) : body;
}

/** The conversations, newest activity first: on the Chats page and beside the thread on desktop. */
export function ChatList({
  chats,
  activeId,
  onDelete,
}: {
  chats: ChatListItem[];
  activeId?: number;
  onDelete?: (chat: ChatListItem) => void;
}) {
  const { t } = useTranslation();
  const dates = useDates();
  return (
    <ul className="list-group list-group-flush" data-testid="chat-list">
      {chats.map((chat) => {
        const unread = badgeLabel(chat.num_unread_messages);
        const active = chat.conversation.id === activeId;
        return (
          <li
            key={chat.conversation.id}
            className={`list-group-item d-flex align-items-center gap-3 ${active ? 'bg-body-secondary' : ''}`}
          >
            {chat.profile.main_image ? (
              <img
                src={chat.profile.main_image.thumb_filename}
                alt=""
                width={48}
                height={48}
                className="rounded-circle object-fit-cover flex-shrink-0"
                loading="lazy"
              />
            ) : (
              <span className="chat-avatar-initial" style={{ width: 48, height: 48 }} aria-hidden="true">
                {chat.profile.name.slice(0, 1).toUpperCase()}
              </span>
            )}
            <Link
              to={`/chats/${chat.conversation.id}`}
              className="flex-grow-1 text-decoration-none text-body min-w-0"
              aria-current={active ? 'page' : undefined}
            >
              <span className="d-flex justify-content-between gap-2">
                <strong className="text-truncate">{chat.profile.name}</strong>
                <small className="text-body-secondary flex-shrink-0">
                  <time dateTime={chat.conversation.last_activity} suppressHydrationWarning>
                    {dates.recent(chat.conversation.last_activity)}
                  </time>
                </small>
              </span>
              <span className="d-block text-truncate text-body-secondary small">
                {preview(chat.conversation.last_message, t)}
              </span>
            </Link>
            {unread && (
              <span className="badge rounded-pill bg-unread" data-testid="chat-unread">
                <span aria-hidden="true">{unread}</span>
                <span className="visually-hidden">
                  {t('chat:list.unread', { count: chat.num_unread_messages })}
                </span>
              </span>
            )}
            {onDelete && (
              <button
                type="button"
                className="btn btn-sm btn-outline-secondary"
                onClick={() => onDelete(chat)}
                aria-label={t('chat:list.delete', { name: chat.profile.name })}
              >
                <Trash aria-hidden="true" />
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
