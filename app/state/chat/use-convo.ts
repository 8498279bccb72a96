import { useEffect, useState, useSyncExternalStore } from 'react';
import { api } from '#app/lib/api.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import type { LiveSocket } from '#app/state/live-socket.ts';
import {
  type ChatResponse,
  type Message,
  sendMessageResponseSchema,
  sendPhotoHeldResponseSchema,
} from '#contract/chats.ts';
import { errorBodySchema } from '#contract/common.ts';
import type { ConnectionStatus } from '#contract/live.ts';
import {
  ConvoController,
  type ConvoView,
  type Draft,
  type FailReason,
  initialConvo,
  newClientId,
  type SendOutcome,
} from './convo.ts';

/** The POST body of a draft that is not an upload, with its idempotency key. */
function bodyOf(profile: number, draft: Exclude<Draft, { kind: 'upload' }>, clientId: string) {
  switch (draft.kind) {
    case 'text':
      return { profile, text: draft.text, client_id: clientId };
    case 'photo':
      return { profile, photo: draft.photo, client_id: clientId };
    case 'gift':
      return { profile, gift: draft.gift, client_id: clientId };
  }
}

function failureOf(status: number, code: string, message: string): SendOutcome {
  const reason: FailReason =
    status === 0
      ? 'offline'
      : code === 'insufficient_credits'
        ? 'insufficient_credits'
        : code === 'premium_required'
          ? 'premium_required'
          : 'rejected';
  return { ok: false, reason, detail: status === 0 ? null : message };
}

/**
 * A photo from the device: multipart to POST /api/chat-photo.php (outside the JSON client), where
 * the server re-encodes it without EXIF and sends it as one message.
 */
async function sendUpload(profile: number, file: Blob, clientId: string): Promise<SendOutcome> {
  const form = new FormData();
  form.append('file', file);
  const query = new URLSearchParams({ profile: String(profile), client_id: clientId });
  const response = await fetch(`/api/chat-photo.php?${query}`, {
    method: 'POST',
    body: form,
    credentials: 'same-origin',
  }).catch((error: unknown) => {
    // No answer: the message shows as not sent, with its retry.
    reportCaught('sending a photo', error);
    return null;
  });
  if (!response) return failureOf(0, '', '');
  const json: unknown = await response.json().catch(() => {
    // expected: an answer without a JSON body is judged by its status below.
    return null;
  });
  const sent = sendMessageResponseSchema.safeParse(json);
  if (response.ok && sent.success) {
    return { ok: true, message: sent.data.message, credits: sent.data.credits, warning: null };
  }
  const held = sendPhotoHeldResponseSchema.safeParse(json);
  if (response.ok && held.success)
    return { ok: 'held', photo: held.data.in_review, credits: held.data.credits };
  const error = errorBodySchema.safeParse(json);
  return error.success
    ? failureOf(response.status, error.data.error, error.data.message)
    : failureOf(response.status, 'internal_error', `HTTP ${response.status}`);
}

async function sendDraft(profile: number, draft: Draft, clientId: string): Promise<SendOutcome> {
  if (draft.kind === 'upload') return sendUpload(profile, draft.file, clientId);
  const answer = await api('POST /api/chat.php', { body: bodyOf(profile, draft, clientId) });
  if (answer.ok) {
    return {
      ok: true,
      message: answer.data.message,
      credits: answer.data.credits,
      warning: answer.data.warning ?? null,
    };
  }
  return failureOf(
    answer.status,
    answer.status === 0 ? '' : answer.code,
    answer.status === 0 ? '' : answer.error.message,
  );
}

/** The conversation's connection: the live socket's status, and offline whenever the browser is. */
export function connectionOf(socket: ConnectionStatus, online: boolean): ConnectionStatus {
  return online ? socket : 'offline';
}

function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => {
      window.addEventListener('online', listener);
      window.addEventListener('offline', listener);
      return () => {
        window.removeEventListener('online', listener);
        window.removeEventListener('offline', listener);
      };
    },
    () => navigator.onLine,
    () => true,
  );
}

/**
 * One conversation's state machine, wired to the API and the live socket: messages for it arrive
 * as events (no re-fetch), `read` moves the read receipts, a reconnect catches up.
 */
export function useConvo(
  chat: ChatResponse,
  live: { socket: LiveSocket | null; connection: ConnectionStatus },
  callbacks: {
    onSent(outcome: Extract<SendOutcome, { ok: true }>): void;
    onHeld(outcome: Extract<SendOutcome, { ok: 'held' }>): void;
    onFailed(reason: FailReason, draft: Draft): void;
    onTyping(): void;
  },
): ConvoView {
  const conversation = chat.conversation.id;
  const profile = chat.profile.id;
  const [controller] = useState(
    () =>
      new ConvoController(
        initialConvo({
          conversation,
          messages: chat.messages,
          hasOlder: chat.has_older,
          readUpTo: chat.read_up_to ?? 0,
          inReview: chat.photos_in_review,
        }),
        {
          send: (draft, clientId) => sendDraft(profile, draft, clientId),
          fetchAfter: async (after) => {
            const answer = await api('GET /api/chat.php', { query: { conversation, after } });
            return answer.ok ? answer.data.messages : null;
          },
          fetchBefore: async (before) => {
            const answer = await api('GET /api/chat.php', { query: { conversation, before } });
            return answer.ok ? { messages: answer.data.messages, hasOlder: answer.data.has_older } : null;
          },
          newClientId,
          now: () => new Date(),
          onSent: (outcome) => callbacksRef.current.onSent(outcome),
          onHeld: (outcome) => callbacksRef.current.onHeld(outcome),
          onFailed: (reason, draft) => callbacksRef.current.onFailed(reason, draft),
        },
      ),
  );
  const callbacksRef = useLatest(callbacks);
  const online = useOnline();
  const status = connectionOf(live.connection, online);
  useEffect(() => controller.dispatch({ type: 'connection', status }), [controller, status]);

  useEffect(() => {
    if (!live.socket) return;
    return live.socket.subscribe((event) => {
      if (event.type === 'message' && event.conversation === conversation) {
        const message: Message = event.message;
        controller.dispatch({ type: 'received', messages: [message] });
        // Read while on screen: reading the page after it marks it read and sends the sender's receipt.
        if (!message.mine) void api('GET /api/chat.php', { query: { conversation, after: message.id } });
      } else if (event.type === 'read' && event.conversation === conversation) {
        controller.dispatch({ type: 'read', upTo: event.up_to ?? Number.MAX_SAFE_INTEGER });
      } else if (event.type === 'photo_review' && event.conversation === conversation) {
        // Decided by a moderator: delivered ones arrive as a 'message' of their own.
        controller.dispatch({ type: 'reviewed', id: event.id });
      } else if (event.type === 'typing' && event.conversation === conversation) {
        callbacksRef.current.onTyping();
      }
    });
  }, [live.socket, conversation, controller, callbacksRef]);

  return useSyncExternalStore(controller.subscribe, controller.getView, controller.getView);
}

function useLatest<T>(value: T): { current: T } {
  const [ref] = useState(() => ({ current: value }));
  ref.current = value;
  return ref;
}
