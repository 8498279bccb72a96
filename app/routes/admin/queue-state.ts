import { type AdminEvent, compareQueue, type InboxItem, type InboxOrder } from '#contract/admin.ts';

/** What the console shows of the queue: a page (or more) of waiting rows and all claimed ones. */
export type QueueState = {
  conversations: InboxItem[];
  claimed: InboxItem[];
  nextCursor: string | null;
};

export type QueueView = {
  order: InboxOrder;
  site: number | null;
  language: string | null;
  now: number;
};

const matches = (item: InboxItem, view: QueueView) =>
  (view.site === null || item.site.id === view.site) &&
  (view.language === null || item.member_language === view.language);

const isClaimed = (item: InboxItem, now: number) =>
  item.claimed_by !== null && item.claim_expires_at !== null && Date.parse(item.claim_expires_at) > now;

/**
 * Puts a row where the server would: claimed rows with the claimed, waiting ones at their place in
 * the order — unless it falls past the last loaded row while more pages remain (it comes with them).
 */
function place(state: QueueState, item: InboxItem, view: QueueView): QueueState {
  const without = {
    ...state,
    conversations: state.conversations.filter((row) => row.id !== item.id),
    claimed: state.claimed.filter((row) => row.id !== item.id),
  };
  if (!matches(item, view)) return without;
  if (isClaimed(item, view.now)) {
    const claimed = [...without.claimed, item].sort((a, b) => compareQueue('oldest', a, b));
    return { ...without, claimed };
  }
  const rows = without.conversations;
  const last = rows.at(-1);
  if (state.nextCursor !== null && last && compareQueue(view.order, item, last) > 0) return without;
  const index = rows.findIndex((row) => compareQueue(view.order, item, row) < 0);
  const conversations = index < 0 ? [...rows, item] : [...rows.slice(0, index), item, ...rows.slice(index)];
  return { ...without, conversations };
}

/** The queue after a live event: the row the event carries is patched in, nothing is fetched again. */
export function applyQueueEvent(state: QueueState, event: AdminEvent, view: QueueView): QueueState {
  if (event.type === 'inbox') {
    if (event.op === 'remove') {
      const id = event.conversation.id;
      return {
        ...state,
        conversations: state.conversations.filter((row) => row.id !== id),
        claimed: state.claimed.filter((row) => row.id !== id),
      };
    }
    return place(state, event.conversation, view);
  }
  if (event.type === 'claim') {
    const known = [...state.conversations, ...state.claimed].find((row) => row.id === event.conversation);
    if (!known) return state;
    return place(
      state,
      { ...known, claimed_by: event.claimed_by, claim_expires_at: event.claim_expires_at },
      view,
    );
  }
  return state;
}
