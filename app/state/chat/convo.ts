import type { Message, PhotoInReview } from '#contract/chats.ts';
import type { ConnectionStatus } from '#contract/live.ts';

/**
 * One conversation as a state machine (after Bluesky social-app src/state/messages/convo/): the
 * connection status, the messages as sent / pending / failed, and the actions each state allows.
 * `reduce` is pure; ConvoController runs the effects (sending, catching up) and never sends one
 * client id twice at the same time. app/routes/chat.tsx only renders what it exposes.
 */

/**
 * What the member sends: a text, one of the own photos, a photo from the device (camera or
 * gallery; `preview` is its object URL while it is on its way), or a gift.
 */
export type Draft =
  | { kind: 'text'; text: string }
  | { kind: 'photo'; photo: number }
  | { kind: 'upload'; file: Blob; preview: string }
  | { kind: 'gift'; gift: number };

/** Why a send failed: no network, not enough credits, premium needed, or the server said no. */
export type FailReason = 'offline' | 'insufficient_credits' | 'premium_required' | 'rejected';

export type SentItem = { state: 'sent'; key: string; message: Message };
export type PendingItem = {
  state: 'pending';
  key: string;
  clientId: string;
  draft: Draft;
  createdAt: string;
};
export type FailedItem = {
  state: 'failed';
  key: string;
  clientId: string;
  draft: Draft;
  createdAt: string;
  reason: FailReason;
  /** The server's message for `rejected`, in the member's language. */
  detail: string | null;
};
export type ConvoItem = SentItem | PendingItem | FailedItem;

export type ConvoData = {
  conversation: number;
  items: ConvoItem[];
  hasOlder: boolean;
  /** The newest message id the other member has read (read receipts). */
  readUpTo: number;
  /** Own photos the screening held for a moderator: shown to this member only, as "in review". */
  inReview: PhotoInReview[];
};

/** The connection states; the actions each allows are in ConvoView below. */
export type ConvoState = ConvoData & { status: ConnectionStatus };

export type ConvoEvent =
  | { type: 'connection'; status: ConnectionStatus }
  | { type: 'send'; clientId: string; draft: Draft; at: string }
  | { type: 'sent'; clientId: string; message: Message }
  | { type: 'failed'; clientId: string; reason: FailReason; detail?: string | null }
  | { type: 'retry'; clientId: string }
  | { type: 'discard'; clientId: string }
  | { type: 'received'; messages: Message[] }
  | { type: 'older'; messages: Message[]; hasOlder: boolean }
  | { type: 'read'; upTo: number }
  | { type: 'held'; clientId: string; photo: PhotoInReview }
  | { type: 'reviewed'; id: number };

export function initialConvo(data: {
  conversation: number;
  messages: Message[];
  hasOlder: boolean;
  readUpTo: number;
  inReview?: PhotoInReview[] | undefined;
}): ConvoState {
  return {
    status: 'connecting',
    conversation: data.conversation,
    items: sortItems(data.messages.map(sentItem)),
    hasOlder: data.hasOlder,
    readUpTo: data.readUpTo,
    inReview: data.inReview ?? [],
  };
}

const sentItem = (message: Message): SentItem => ({ state: 'sent', key: `m${message.id}`, message });

/** Sent messages by id, oldest first; pending and failed ones after them, in the order they were written. */
function sortItems(items: ConvoItem[]): ConvoItem[] {
  const sent = items.filter((item): item is SentItem => item.state === 'sent');
  const rest = items.filter((item) => item.state !== 'sent');
  sent.sort((a, b) => a.message.id - b.message.id);
  return [...sent, ...rest];
}

/** Merges sent messages in: known ids are kept once; a message carrying a waiting item's client id settles it. */
function merge(items: ConvoItem[], messages: Message[]): ConvoItem[] {
  const known = new Set(items.flatMap((item) => (item.state === 'sent' ? [item.message.id] : [])));
  const settled = new Set(messages.flatMap((message) => (message.client_id ? [message.client_id] : [])));
  const kept = items.filter((item) => item.state === 'sent' || !settled.has(item.clientId));
  const added = messages.filter((message) => !known.has(message.id)).map(sentItem);
  return sortItems([...kept, ...added]);
}

export function reduce(state: ConvoState, event: ConvoEvent): ConvoState {
  switch (event.type) {
    case 'connection':
      return state.status === event.status ? state : { ...state, status: event.status };
    case 'send': {
      if (state.items.some((item) => item.state !== 'sent' && item.clientId === event.clientId)) return state;
      // Offline nothing is sent: the message shows failed at once, with retry, never silently kept.
      const item: ConvoItem =
        state.status === 'offline'
          ? {
              state: 'failed',
              key: event.clientId,
              clientId: event.clientId,
              draft: event.draft,
              createdAt: event.at,
              reason: 'offline',
              detail: null,
            }
          : {
              state: 'pending',
              key: event.clientId,
              clientId: event.clientId,
              draft: event.draft,
              createdAt: event.at,
            };
      return { ...state, items: [...state.items, item] };
    }
    case 'held':
      return {
        ...state,
        items: state.items.filter((item) => item.state === 'sent' || item.clientId !== event.clientId),
        inReview: state.inReview.some((photo) => photo.id === event.photo.id)
          ? state.inReview
          : [...state.inReview, event.photo],
      };
    case 'reviewed':
      return state.inReview.some((photo) => photo.id === event.id)
        ? { ...state, inReview: state.inReview.filter((photo) => photo.id !== event.id) }
        : state;
    case 'sent':
      return {
        ...state,
        items: merge(
          state.items.filter((item) => item.state === 'sent' || item.clientId !== event.clientId),
          [event.message],
        ),
      };
    case 'failed':
      return {
        ...state,
        items: state.items.map((item) =>
          item.state === 'pending' && item.clientId === event.clientId
            ? {
                state: 'failed',
                key: item.key,
                clientId: item.clientId,
                draft: item.draft,
                createdAt: item.createdAt,
                reason: event.reason,
                detail: event.detail ?? null,
              }
            : item,
        ),
      };
    case 'retry':
      if (state.status === 'offline') return state;
      return {
        ...state,
        items: state.items.map((item) =>
          item.state === 'failed' && item.clientId === event.clientId
            ? {
                state: 'pending',
                key: item.key,
                clientId: item.clientId,
                draft: item.draft,
                createdAt: item.createdAt,
              }
            : item,
        ),
      };
    case 'discard':
      return {
        ...state,
        items: state.items.filter((item) => !(item.state === 'failed' && item.clientId === event.clientId)),
      };
    case 'received':
      return { ...state, items: merge(state.items, event.messages) };
    case 'older':
      return { ...state, items: merge(state.items, event.messages), hasOlder: event.hasOlder };
    case 'read':
      return event.upTo > state.readUpTo ? { ...state, readUpTo: event.upTo } : state;
  }
}

/** The items waiting for the server, oldest first. */
export function pendingItems(state: ConvoState): PendingItem[] {
  return state.items.filter((item): item is PendingItem => item.state === 'pending');
}

export function lastSentId(state: ConvoData): number {
  let last = 0;
  for (const item of state.items) if (item.state === 'sent') last = Math.max(last, item.message.id);
  return last;
}

export function firstSentId(state: ConvoData): number | null {
  const first = state.items.find((item) => item.state === 'sent');
  return first && first.state === 'sent' ? first.message.id : null;
}

/** What sending answered: the message, the new balance, or why not. */
export type SendOutcome =
  | { ok: true; message: Message; credits: number; warning: 'contact_details' | null }
  /** A device photo the screening held: it waits for a moderator (paid, refunded if rejected). */
  | { ok: 'held'; photo: PhotoInReview; credits: number }
  | { ok: false; reason: FailReason; detail: string | null };

export type ConvoDeps = {
  /** POST /api/chat.php with the client id as idempotency key. */
  send(draft: Draft, clientId: string): Promise<SendOutcome>;
  /** Messages after an id (catch-up after a reconnect); null when it failed. */
  fetchAfter(afterId: number): Promise<Message[] | null>;
  /** The page before an id; null when it failed. */
  fetchBefore(beforeId: number): Promise<{ messages: Message[]; hasOlder: boolean } | null>;
  newClientId(): string;
  now(): Date;
  onSent?(outcome: Extract<SendOutcome, { ok: true }>): void;
  onHeld?(outcome: Extract<SendOutcome, { ok: 'held' }>): void;
  onFailed?(reason: FailReason, draft: Draft): void;
};

type Common = ConvoData;
type SendActions = {
  send(draft: Draft): void;
  discard(clientId: string): void;
};
type OnlineActions = SendActions & { retry(clientId: string): void };

/**
 * What a screen sees, by connection state. Only the actions a state allows are there: offline a
 * message cannot be retried (it would fail again) and no older page loads; while (re)connecting
 * no older page loads either (the catch-up comes first).
 */
export type ConvoView =
  | (Common & { status: 'ready' } & OnlineActions & { loadOlder(): void })
  | (Common & { status: 'connecting' } & OnlineActions)
  | (Common & { status: 'reconnecting' } & OnlineActions)
  | (Common & { status: 'offline' } & SendActions);

/** Runs a conversation: dispatches events, sends what is pending (once per client id), catches up on reconnect. */
export class ConvoController {
  private state: ConvoState;
  private readonly listeners = new Set<() => void>();
  private readonly inFlight = new Set<string>();
  private view: ConvoView;
  private loadingOlder = false;

  constructor(
    initial: ConvoState,
    private readonly deps: ConvoDeps,
  ) {
    this.state = initial;
    this.view = this.makeView();
  }

  getState(): ConvoState {
    return this.state;
  }

  getView = (): ConvoView => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  dispatch(event: ConvoEvent): void {
    const before = this.state;
    const next = reduce(before, event);
    if (next === before) return;
    this.state = next;
    this.view = this.makeView();
    for (const listener of this.listeners) listener();
    // A (re)connected conversation fetches what it missed; its own messages among them settle waiting items.
    if (event.type === 'connection' && event.status === 'ready' && before.status !== 'ready')
      void this.catchUp();
    this.flush();
  }

  /** Sends every pending item not already on its way: one request per client id at a time. */
  private flush(): void {
    for (const item of pendingItems(this.state)) {
      if (this.inFlight.has(item.clientId)) continue;
      this.inFlight.add(item.clientId);
      void this.deps.send(item.draft, item.clientId).then((outcome) => {
        this.inFlight.delete(item.clientId);
        if (outcome.ok === 'held') {
          this.dispatch({ type: 'held', clientId: item.clientId, photo: outcome.photo });
          this.deps.onHeld?.(outcome);
        } else if (outcome.ok) {
          this.dispatch({ type: 'sent', clientId: item.clientId, message: outcome.message });
          this.deps.onSent?.(outcome);
        } else {
          this.dispatch({
            type: 'failed',
            clientId: item.clientId,
            reason: outcome.reason,
            detail: outcome.detail,
          });
          this.deps.onFailed?.(outcome.reason, item.draft);
        }
      });
    }
  }

  private async catchUp(): Promise<void> {
    const messages = await this.deps.fetchAfter(lastSentId(this.state));
    if (messages && messages.length > 0) this.dispatch({ type: 'received', messages });
  }

  private async loadOlder(): Promise<void> {
    const first = firstSentId(this.state);
    if (first === null || this.loadingOlder || !this.state.hasOlder) return;
    this.loadingOlder = true;
    const page = await this.deps.fetchBefore(first);
    this.loadingOlder = false;
    if (page) this.dispatch({ type: 'older', messages: page.messages, hasOlder: page.hasOlder });
  }

  private makeView(): ConvoView {
    const { status, ...data } = this.state;
    const send = (draft: Draft) =>
      this.dispatch({
        type: 'send',
        clientId: this.deps.newClientId(),
        draft,
        at: this.deps.now().toISOString(),
      });
    const discard = (clientId: string) => this.dispatch({ type: 'discard', clientId });
    const retry = (clientId: string) => this.dispatch({ type: 'retry', clientId });
    switch (status) {
      case 'ready':
        return { ...data, status, send, discard, retry, loadOlder: () => void this.loadOlder() };
      case 'connecting':
        return { ...data, status, send, discard, retry };
      case 'reconnecting':
        return { ...data, status, send, discard, retry };
      case 'offline':
        return { ...data, status, send, discard };
    }
  }
}

/** A fresh idempotency key for one message: 22 URL-safe characters. */
export function newClientId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(
    bytes,
    (byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[byte % 64],
  ).join('');
}
