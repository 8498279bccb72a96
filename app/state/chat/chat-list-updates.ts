import type { ChatListItem, ChatResponse } from '#contract/chats.ts';

/** Patches the list with a message as it arrives: no re-fetch of the list. */
export function withMessage(
  chats: ChatListItem[],
  conversation: number,
  message: ChatListItem['conversation']['last_message'],
  open: boolean,
) {
  const index = chats.findIndex((chat) => chat.conversation.id === conversation);
  const found = chats[index];
  if (!found || !message) return null;
  const updated: ChatListItem = {
    ...found,
    conversation: { ...found.conversation, last_message: message, last_activity: message.created_at },
    num_unread_messages: message.mine || open ? found.num_unread_messages : found.num_unread_messages + 1,
  };
  return [updated, ...chats.filter((_, position) => position !== index)];
}

/**
 * The list beside an open conversation: the open one is in it even before its first message (a
 * chat opened from a new match, listed at once as the dating apps list a new match), in its place
 * by last activity — a fresh one at the top, an old one from a later page of the list further down.
 */
export function withOpenConversation(chats: ChatListItem[], open: ChatResponse | null): ChatListItem[] {
  if (!open || chats.some((chat) => chat.conversation.id === open.conversation.id)) return chats;
  const item: ChatListItem = {
    profile: open.profile,
    conversation: open.conversation,
    num_unread_messages: 0,
  };
  const at = chats.findIndex((chat) => chat.conversation.last_activity < open.conversation.last_activity);
  return at === -1 ? [...chats, item] : [...chats.slice(0, at), item, ...chats.slice(at)];
}
