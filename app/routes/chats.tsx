import { useEffect, useRef, useState } from 'react';
import { Link, redirect } from 'react-router';
import { ChatList } from '#app/components/chat/chat-list.tsx';
import { NewMatchesRow } from '#app/components/chat/new-matches-row.tsx';
import { api, serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { newMatchesOf } from '#app/lib/new-matches.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { withMessage } from '#app/state/chat/chat-list-updates.ts';
import { useCounts } from '#app/state/counts.tsx';
import { useLiveConnection } from '#app/state/live-connection.tsx';
import type { ChatListItem } from '#contract/chats.ts';
import type { Route } from './+types/chats';

export const handle = { membersArea: true };

/** How long a deleted conversation can be brought back before it is deleted on the server. */
export const undoDeleteMs = 5000;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.chats');
}

export async function loader({ context }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  const [answer, likes] = await Promise.all([api('GET /api/chats.php'), api('GET /api/likes.php')]);
  if (!answer.ok) throw redirect('/login?redirect=%2Fchats');
  return {
    chats: answer.data.chats,
    next: answer.data.next,
    matches: newMatchesOf(likes.ok ? likes.data : null),
  };
}

/** The conversation list (spec §2): new matches first, unread counts in the green unread colour, newest activity first. */
export default function Chats({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { socket } = useLiveConnection();
  const { reloadCounts } = useCounts();
  const [chats, setChats] = useState(loaderData.chats);
  const [next, setNext] = useState(loaderData.next);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [removed, setRemoved] = useState<ChatListItem | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    setChats(loaderData.chats);
    setNext(loaderData.next);
  }, [loaderData.chats, loaderData.next]);

  /** The list comes a page at a time: the next page joins the end, without rows already shown. */
  const showOlder = async () => {
    if (!next || loadingOlder) return;
    setLoadingOlder(true);
    const answer = await api('GET /api/chats.php', { query: { cursor: next } });
    setLoadingOlder(false);
    if (!answer.ok) {
      setFailed(t('chat:list.olderFailed', { error: answer.error.message }));
      return;
    }
    setFailed(null);
    setChats((current) => {
      const shown = new Set(current.map((chat) => chat.conversation.id));
      return [...current, ...answer.data.chats.filter((chat) => !shown.has(chat.conversation.id))];
    });
    setNext(answer.data.next);
  };
  useEffect(
    () =>
      socket?.subscribe((event) => {
        if (event.type !== 'message') return;
        setChats((current) => withMessage(current, event.conversation, event.message, false) ?? current);
      }),
    [socket],
  );

  const mounted = useRef(true);
  /**
   * The list as the server has it now: its first page again (older pages load anew). Should that
   * fail too, the conversation that stayed comes back in place, as the server kept it.
   */
  const reloadList = async (kept: ChatListItem) => {
    const answer = await api('GET /api/chats.php');
    if (!mounted.current) return;
    if (!answer.ok) {
      reportCaught('reloading the chats after a failed deletion', answer.error);
      setChats((current) =>
        current.some((item) => item.conversation.id === kept.conversation.id)
          ? current
          : [...current, kept].sort((a, b) =>
              b.conversation.last_activity.localeCompare(a.conversation.last_activity),
            ),
      );
      return;
    }
    setChats(answer.data.chats);
    setNext(answer.data.next);
  };
  const commit = async (chat: ChatListItem) => {
    const answer = await api('DELETE /api/chat.php', { body: { conversation: chat.conversation.id } });
    if (answer.ok) {
      void reloadCounts().catch((error: unknown) => reportCaught('reloading the chats', error));
      return;
    }
    // Spec §4, §8: a deletion that failed for good says so in the browser's alert at once (also
    // after leaving the page), and the list is loaded again, so it shows what the server kept.
    window.alert(t('chat:list.deleteFailed', { error: answer.error.message }));
    if (mounted.current) await reloadList(chat);
  };
  const pending = useRef<ChatListItem | null>(null);
  // Leaving the page deletes what is waiting at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on leaving the page.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
      if (pending.current) void commit(pending.current);
    };
  }, []);

  /** Removed at once with an undo for a few seconds, then deleted on the server (spec §4). */
  const remove = (chat: ChatListItem) => {
    clearTimeout(timer.current);
    if (pending.current) void commit(pending.current);
    pending.current = chat;
    setRemoved(chat);
    setChats((current) => current.filter((item) => item.conversation.id !== chat.conversation.id));
    timer.current = setTimeout(() => {
      pending.current = null;
      setRemoved(null);
      void commit(chat);
    }, undoDeleteMs);
  };
  const undo = () => {
    clearTimeout(timer.current);
    const chat = pending.current;
    pending.current = null;
    setRemoved(null);
    if (chat)
      setChats((current) =>
        [...current, chat].sort((a, b) =>
          b.conversation.last_activity.localeCompare(a.conversation.last_activity),
        ),
      );
  };

  return (
    <div className="container py-4" style={{ maxWidth: 720 }}>
      <h1 className="h3 mb-3">{t('page.chats')}</h1>
      <NewMatchesRow matches={loaderData.matches} className="mb-4" />
      {removed && (
        <div
          className="alert alert-secondary d-flex align-items-center justify-content-between py-2"
          role="status"
          data-testid="chat-deleted"
        >
          <span>{t('chat:list.deleted', { name: removed.profile.name })}</span>
          <button type="button" className="btn btn-link btn-sm" onClick={undo}>
            {t('chat:list.undo')}
          </button>
        </div>
      )}
      {failed && (
        <div className="alert alert-danger py-2" role="alert">
          {failed}
        </div>
      )}
      {chats.length === 0 ? (
        <div>
          <p>{t('chat:list.empty')}</p>
          <Link to="/members" className="btn btn-primary">
            {t('chat:list.findMembers')}
          </Link>
        </div>
      ) : (
        <div className="border rounded-3 overflow-hidden">
          <ChatList chats={chats} onDelete={remove} />
        </div>
      )}
      {next && (
        <div className="text-center mt-3">
          <button
            type="button"
            className="btn btn-outline-primary rounded-pill px-4"
            onClick={() => void showOlder()}
            disabled={loadingOlder}
            aria-busy={loadingOlder}
            data-testid="chats-older"
          >
            {loadingOlder && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
            {t('chat:list.older')}
          </button>
        </div>
      )}
    </div>
  );
}
