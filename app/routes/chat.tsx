import { data, redirect } from 'react-router';
import { ChatSidebar } from '#app/components/chat/chat-sidebar.tsx';
import { ChatUnavailable } from '#app/components/chat/chat-unavailable.tsx';
import { Thread } from '#app/components/chat/thread.tsx';
import { serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { newMatchesOf } from '#app/lib/new-matches.ts';
import { useLiveChatList } from '#app/state/chat/use-live-chat-list.ts';
import type { Route } from './+types/chat';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.chats');
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  const [chat, gifts, own, list, likes] = await Promise.all([
    api('GET /api/chat.php', { query: { conversation: Number(params.id) || 0 } }),
    api('GET /api/gifts.php'),
    api('GET /api/profile.php'),
    api('GET /api/chats.php'),
    api('GET /api/likes.php'),
  ]);
  const matches = newMatchesOf(likes.ok ? likes.data : null);
  if (!chat.ok) {
    if (chat.code === 'authentication_required')
      throw redirect(`/login?redirect=${encodeURIComponent(new URL(request.url).pathname)}`);
    // A deleted, banned or blocking partner, or a conversation that is gone: "no longer available".
    if (chat.code === 'blocked' || chat.code === 'not_found' || chat.code === 'validation_failed') {
      return { unavailable: true as const, chats: list.ok ? list.data.chats : [], matches };
    }
    throw data(null, { status: chat.status || 500 });
  }
  return {
    unavailable: false as const,
    chat: chat.data,
    gifts: gifts.ok ? gifts.data.gifts : [],
    photos: own.ok ? own.data.profile.photos : [],
    chats: list.ok ? list.data.chats : [],
    // The open conversation's partner is in the list already, not among the new matches.
    matches: matches.filter((profile) => profile.id !== chat.data.profile.id),
  };
}

/** A conversation: the thread full screen on a phone; beside the new matches and the conversation list from 992 px. */
export default function Chat({ loaderData }: Route.ComponentProps) {
  const activeChat = loaderData.unavailable ? null : loaderData.chat;
  const chats = useLiveChatList(loaderData.chats, activeChat);
  return (
    <div className="chat-screen d-flex" style={{ height: '100dvh' }}>
      <ChatSidebar chats={chats} matches={loaderData.matches} activeId={activeChat?.conversation.id} />
      {loaderData.unavailable ? (
        <ChatUnavailable />
      ) : (
        <Thread key={loaderData.chat.conversation.id} data={loaderData} />
      )}
    </div>
  );
}
