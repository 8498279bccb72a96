import { useEffect, useState } from 'react';
import { Trash } from 'react-bootstrap-icons';
import { useTranslation } from 'react-i18next';
import { Link, redirect, useRevalidator } from 'react-router';
import type { ChatListItem, Message } from '#contract/chats.ts';
import { ApiError, apiFetch } from '../lib/api-client.ts';
import { useDates } from '../lib/format.ts';
import { pageMeta } from '../lib/meta.ts';
import { badgeLabel } from '../lib/shell-rules.ts';
import { useLiveState } from '../state/live-state.tsx';
import type { Route } from './+types/chats';

export const handle = { membersArea: true };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.chats');
}

export async function loader({ context }: Route.LoaderArgs) {
  const answer = await context.api<{ chats: ChatListItem[] }>('/api/chats.php');
  if (!answer.ok) throw redirect('/login?redirect=%2Fchats');
  return answer.data;
}

function preview(
  message: Message | null,
  t: (key: string, params?: Record<string, unknown>) => string,
): string {
  if (!message) return '';
  const body =
    message.kind === 'text'
      ? (message.text ?? '')
      : message.kind === 'photo'
        ? t('chat:list.photo')
        : t('chat:list.gift');
  return message.mine ? t('chat:list.you', { text: body }) : body;
}

/** The conversation list (spec §2): unread counts in the green unread colour, newest activity first. */
export default function Chats({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const dates = useDates();
  const { socket, reloadChats } = useLiveState();
  const revalidator = useRevalidator();
  const [chats, setChats] = useState(loaderData.chats);
  useEffect(() => setChats(loaderData.chats), [loaderData.chats]);
  useEffect(
    () => socket?.subscribe((event) => event.type === 'message' && void revalidator.revalidate()),
    [socket, revalidator],
  );

  /** Removed at once, then deleted on the server; on failure an alert and a fresh list (spec §4). */
  const remove = async (chat: ChatListItem) => {
    setChats((current) => current.filter((item) => item.conversation.id !== chat.conversation.id));
    try {
      await apiFetch('/api/chat.php', { method: 'DELETE', body: { conversation: chat.conversation.id } });
      void reloadChats().catch(() => undefined);
    } catch (error) {
      window.alert(
        t('chat:list.deleteFailed', { error: error instanceof ApiError ? error.message : String(error) }),
      );
      await revalidator.revalidate();
    }
  };

  return (
    <div className="container py-4" style={{ maxWidth: 720 }}>
      <h1 className="h3 mb-3">{t('page.chats')}</h1>
      {chats.length === 0 ? (
        <div>
          <p>{t('chat:list.empty')}</p>
          <Link to="/members" className="btn btn-primary">
            {t('chat:list.findMembers')}
          </Link>
        </div>
      ) : (
        <ul className="list-group" data-testid="chat-list">
          {chats.map((chat) => {
            const unread = badgeLabel(chat.num_unread_messages);
            return (
              <li key={chat.conversation.id} className="list-group-item d-flex align-items-center gap-3">
                {chat.profile.main_image ? (
                  <img
                    src={chat.profile.main_image.thumb_filename}
                    alt=""
                    width={48}
                    height={48}
                    className="rounded-circle object-fit-cover"
                    loading="lazy"
                  />
                ) : (
                  <span
                    className="rounded-circle bg-light d-inline-block"
                    style={{ width: 48, height: 48 }}
                    aria-hidden="true"
                  />
                )}
                <Link
                  to={`/chats/${chat.conversation.id}`}
                  className="flex-grow-1 text-decoration-none text-body min-w-0"
                >
                  <span className="d-flex justify-content-between">
                    <strong>{chat.profile.name}</strong>
                    <small className="text-body-secondary">
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
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  onClick={() => void remove(chat)}
                  aria-label={t('chat:list.delete', { name: chat.profile.name })}
                >
                  <Trash aria-hidden="true" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
