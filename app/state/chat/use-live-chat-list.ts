import { useEffect, useState } from 'react';
import { useLiveConnection } from '#app/state/live-connection.tsx';
import type { ChatListItem, ChatResponse } from '#contract/chats.ts';
import { withMessage, withOpenConversation } from './chat-list-updates.ts';

/**
 * The conversation list beside an open thread, following the messages as they arrive (no
 * re-fetch). The open conversation is listed from the start, even without a message yet.
 */
export function useLiveChatList(loaded: ChatListItem[], activeChat: ChatResponse | null): ChatListItem[] {
  const { socket } = useLiveConnection();
  const [chats, setChats] = useState<ChatListItem[]>(() => withOpenConversation(loaded, activeChat));
  useEffect(() => setChats(withOpenConversation(loaded, activeChat)), [loaded, activeChat]);
  const activeId = activeChat?.conversation.id;
  useEffect(
    () =>
      socket?.subscribe((event) => {
        if (event.type !== 'message') return;
        setChats((current) => {
          const open = event.conversation === activeId;
          const patched = withMessage(current, event.conversation, event.message, open);
          if (patched) return patched;
          if (!open || !activeChat) return current;
          const first: ChatListItem = {
            profile: activeChat.profile,
            conversation: {
              id: event.conversation,
              last_message: event.message,
              last_activity: event.message.created_at,
            },
            num_unread_messages: 0,
          };
          return [first, ...current];
        });
      }),
    [socket, activeId, activeChat],
  );
  return chats;
}
