import type { ChatListItem } from '#contract/chats.ts';

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
