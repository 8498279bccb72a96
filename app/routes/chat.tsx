import { useCallback, useEffect, useRef, useState } from 'react';
import { ArrowLeft, Gift, Image, StarFill } from 'react-bootstrap-icons';
import { useTranslation } from 'react-i18next';
import { data, Link, redirect } from 'react-router';
import type { ChatResponse, Message } from '#contract/chats.ts';
import type { ErrorBody } from '#contract/common.ts';
import type { OwnProfile } from '#contract/profiles.ts';
import type { User } from '#contract/users.ts';
import { SpendChoice } from '../components/spend-choice.tsx';
import { ApiError, apiFetch } from '../lib/api-client.ts';
import { formatMoney, useDates } from '../lib/format.ts';
import { pageMeta } from '../lib/meta.ts';
import { useRootData } from '../lib/root-data.ts';
import { useLiveState } from '../state/live-state.tsx';
import type { Route } from './+types/chat';

type GiftOption = { id: number; slug: string; image: string; credits: number };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.chats');
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const [chat, gifts, own] = await Promise.all([
    context.api<ChatResponse | ErrorBody>(`/api/chat.php?conversation=${Number(params.id) || 0}`),
    context.api<{ gifts: GiftOption[] }>('/api/gifts.php'),
    context.api<{ profile: OwnProfile }>('/api/profile.php'),
  ]);
  if (!chat.ok) {
    const body = chat.data as ErrorBody;
    if (body.error === 'authentication_required')
      throw redirect(`/login?redirect=${encodeURIComponent(new URL(request.url).pathname)}`);
    if (body.error === 'blocked') return { blockedBy: String(body.name ?? '') };
    throw data(null, { status: chat.status === 422 ? 404 : chat.status });
  }
  return {
    chat: chat.data as ChatResponse,
    gifts: gifts.ok ? gifts.data.gifts : [],
    photos: own.ok ? own.data.profile.photos : [],
  };
}

function MessageBubble({ message }: { message: Message }) {
  const { t } = useTranslation();
  const dates = useDates();
  return (
    <li
      className={`d-flex mb-2 ${message.mine ? 'justify-content-end' : 'justify-content-start'}`}
      data-testid="chat-message"
    >
      <div
        className={`chat-bubble rounded-3 px-3 py-2 ${message.mine ? 'bg-primary text-white' : 'bg-light'}`}
      >
        {message.kind === 'text' && <p className="mb-0 chat-text">{message.text}</p>}
        {message.kind === 'photo' && message.photo && (
          <img
            src={message.photo.thumb_filename}
            alt={t('chat:list.photo')}
            width={180}
            height={180}
            className="rounded object-fit-cover"
            loading="lazy"
          />
        )}
        {message.kind === 'gift' && message.gift && (
          <span className="d-flex align-items-center gap-2">
            <img src={message.gift.image} alt="" width={48} height={48} />
            {t(`chat:gift.${message.gift.slug}`)}
          </span>
        )}
        <small className={`d-block text-end ${message.mine ? 'text-white-50' : 'text-body-secondary'}`}>
          <time dateTime={message.created_at} suppressHydrationWarning>
            {dates.recent(message.created_at, new Date(), true)}
          </time>
        </small>
      </div>
    </li>
  );
}

/** A conversation in the bare chat layout: messages, live delivery, the composer with its costs. */
export default function Chat({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, settings } = useRootData();
  const { socket, connection, setOpenConversation, setUser, reloadChats } = useLiveState();
  const chat = 'chat' in loaderData ? loaderData.chat : null;
  const gifts = ('gifts' in loaderData ? loaderData.gifts : undefined) ?? [];
  const ownPhotos = ('photos' in loaderData ? loaderData.photos : undefined) ?? [];
  const [messages, setMessages] = useState<Message[]>(chat?.messages ?? []);
  const [hasOlder, setHasOlder] = useState(chat?.has_older ?? false);
  const [costs, setCosts] = useState(chat?.costs);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<{ code: string; message: string } | null>(null);
  const [warning, setWarning] = useState(false);
  const [typing, setTyping] = useState(false);
  const [panel, setPanel] = useState<'gift' | 'photo' | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const lastTyping = useRef(0);
  const conversationId = chat?.conversation.id ?? 0;

  const messagesRef = useRef(messages);
  messagesRef.current = messages;

  const add = useCallback((incoming: Message[]) => {
    setMessages((current) => {
      const known = new Set(current.map((message) => message.id));
      return [...current, ...incoming.filter((message) => !known.has(message.id))].sort(
        (a, b) => a.id - b.id,
      );
    });
  }, []);

  const catchUp = useCallback(async () => {
    const last = messagesRef.current.at(-1)?.id ?? 0;
    const answer = await apiFetch<ChatResponse>(
      `/api/chat.php?conversation=${conversationId}&after=${last}`,
    ).catch(() => null);
    if (answer) add(answer.messages);
    void reloadChats().catch(() => undefined);
  }, [conversationId, add, reloadChats]);

  useEffect(() => {
    setOpenConversation(conversationId);
    return () => setOpenConversation(null);
  }, [conversationId, setOpenConversation]);

  useEffect(() => {
    if (!socket) return;
    let typingTimer: ReturnType<typeof setTimeout> | undefined;
    const stop = socket.subscribe((event) => {
      if (event.type === 'message' && event.conversation === conversationId) {
        add([event.message]);
        if (!event.message.mine) void catchUp();
      } else if (event.type === 'typing' && event.conversation === conversationId) {
        setTyping(true);
        clearTimeout(typingTimer);
        typingTimer = setTimeout(() => setTyping(false), 3000);
      } else if (event.type === 'ready') {
        void catchUp();
      }
    });
    return () => {
      stop();
      clearTimeout(typingTimer);
    };
  }, [socket, conversationId, add, catchUp]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the newest message whenever one arrives.
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  }, [messages.length]);

  if (!chat) {
    return (
      <div className="container py-5">
        <div className="alert alert-warning" role="alert">
          {t('errors:blocked', { name: 'blockedBy' in loaderData ? loaderData.blockedBy : '' })}
        </div>
        <Link to="/chats">{t('chat:back')}</Link>
      </div>
    );
  }
  const { profile } = chat;

  const send = async (body: { text?: string; photo?: number; gift?: number }) => {
    setSending(true);
    setProblem(null);
    try {
      const result = await apiFetch<{ message: Message; credits: number; warning?: string }>(
        '/api/chat.php',
        {
          method: 'POST',
          body: { profile: profile.id, ...body },
        },
      );
      add([result.message]);
      setUser((current: User | null) => (current ? { ...current, credits: result.credits } : current));
      setCosts((current) =>
        current && result.message.kind === 'text' && result.message.credits === 0
          ? { ...current, free_messages_left: Math.max(0, current.free_messages_left - 1) }
          : current,
      );
      setWarning(result.warning === 'contact_details');
      if (body.text !== undefined) setText('');
      setPanel(null);
    } catch (error) {
      if (error instanceof ApiError) setProblem({ code: error.code, message: error.message });
    } finally {
      setSending(false);
    }
  };

  const loadOlder = async () => {
    const first = messages[0];
    if (!first) return;
    const answer = await apiFetch<ChatResponse>(
      `/api/chat.php?conversation=${conversationId}&before=${first.id}`,
    );
    setMessages((current) => [...answer.messages, ...current]);
    setHasOlder(answer.has_older);
  };

  return (
    <div className="chat-screen d-flex flex-column" style={{ height: '100dvh' }}>
      <header className="d-flex align-items-center gap-2 border-bottom px-2 py-2 bg-white">
        <Link to="/chats" className="btn btn-link text-body px-2" aria-label={t('chat:back')}>
          <ArrowLeft aria-hidden="true" size={20} />
        </Link>
        {profile.main_image && (
          <img
            src={profile.main_image.thumb_filename}
            alt=""
            width={40}
            height={40}
            className="rounded-circle object-fit-cover"
          />
        )}
        <h1 className="h6 mb-0 flex-grow-1">
          <Link to={`/members/${profile.id}`} className="text-body text-decoration-none">
            {profile.name}, {profile.age}
          </Link>
          {profile.fictional && (
            <span className="ms-2 text-warning" title={t('profile:member.fictional')}>
              <StarFill aria-hidden="true" size={12} />
              <span className="visually-hidden">{t('profile:member.fictional')}</span>
            </span>
          )}
        </h1>
      </header>
      {connection === 'reconnecting' && (
        <div className="alert alert-warning rounded-0 mb-0 py-1 small text-center" role="status">
          {t('chat:connection.reconnecting')}
        </div>
      )}
      <div className="flex-grow-1 overflow-auto px-3 py-2">
        {hasOlder && (
          <div className="text-center mb-2">
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              onClick={() => void loadOlder()}
            >
              {t('chat:older')}
            </button>
          </div>
        )}
        {messages.length === 0 && (
          <p className="text-center text-body-secondary mt-4">{t('chat:empty', { name: profile.name })}</p>
        )}
        <ol ref={list} className="list-unstyled mb-0" aria-live="polite">
          {messages.map((message) => (
            <MessageBubble key={message.id} message={message} />
          ))}
        </ol>
        {typing && (
          <p className="small text-body-secondary fst-italic mb-0">
            {t('chat:typing', { name: profile.name })}
          </p>
        )}
      </div>
      <footer className="border-top bg-white px-2 pt-2 pb-3">
        {!chat.can_reply && (
          <p className="small text-body-secondary mb-2">{t('chat:cannotReply', { name: profile.name })}</p>
        )}
        {problem && (
          <div className="alert alert-danger py-2 small mb-2" role="alert">
            {problem.message}{' '}
            {problem.code === 'insufficient_credits' && (
              <Link to="/credits" className="alert-link">
                {t('chat:buyCredits')}
              </Link>
            )}
            {problem.code === 'premium_required' && (
              <Link to="/premium" className="alert-link">
                {t('chat:getPremium')}
              </Link>
            )}
          </div>
        )}
        {warning && (
          <div className="alert alert-info py-2 small mb-2" role="status">
            {t('chat:contactWarning')}
          </div>
        )}
        {panel === 'gift' && (
          <SpendChoice
            label={t('chat:composer.gift')}
            options={gifts}
            keyOf={(gift) => gift.id}
            costOf={(gift) => gift.credits}
            disabled={sending}
            onSpend={(gift) => void send({ gift: gift.id })}
            renderOption={(gift) => (
              <>
                <img src={gift.image} alt="" width={40} height={40} />
                <span className="d-block small">{t(`chat:gift.${gift.slug}`)}</span>
              </>
            )}
          />
        )}
        {panel === 'photo' &&
          (ownPhotos.length === 0 ? (
            <p className="small mb-2">{t('chat:composer.noPhotos')}</p>
          ) : (
            <SpendChoice
              label={t('chat:composer.photo')}
              options={ownPhotos}
              keyOf={(photo) => photo.id}
              costOf={() => costs?.photo ?? settings.photo_credits}
              disabled={sending}
              onSpend={(photo) => void send({ photo: photo.id })}
              renderOption={(photo) => (
                <img
                  src={photo.thumb_filename}
                  alt=""
                  width={56}
                  height={56}
                  className="rounded object-fit-cover"
                />
              )}
            />
          ))}
        <form
          className="d-flex gap-2 align-items-end"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim()) void send({ text });
          }}
        >
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => setPanel(panel === 'gift' ? null : 'gift')}
            aria-label={t('chat:composer.gift')}
            aria-pressed={panel === 'gift'}
          >
            <Gift aria-hidden="true" />
          </button>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => setPanel(panel === 'photo' ? null : 'photo')}
            aria-label={t('chat:composer.photo')}
            aria-pressed={panel === 'photo'}
          >
            <Image aria-hidden="true" />
          </button>
          <label htmlFor="chat-text" className="visually-hidden">
            {t('chat:composer.label', { name: profile.name })}
          </label>
          <textarea
            id="chat-text"
            className="form-control"
            rows={1}
            value={text}
            placeholder={t('chat:composer.placeholder')}
            maxLength={settings.message_length}
            disabled={!chat.can_reply}
            onChange={(event) => {
              setText(event.target.value);
              if (Date.now() - lastTyping.current > 2000) {
                lastTyping.current = Date.now();
                socket?.send({ type: 'typing', conversation: conversationId });
              }
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                if (text.trim()) void send({ text });
              }
            }}
          />
          <button
            type="submit"
            className="btn btn-primary"
            disabled={sending || !text.trim() || !chat.can_reply}
          >
            {sending ? t('chat:composer.sending') : t('chat:composer.send')}
          </button>
        </form>
        {costs && (
          <p className="small text-body-secondary mb-0 mt-1" data-testid="chat-cost">
            {costs.free_messages_left > 0
              ? t('chat:cost.free', { count: costs.free_messages_left })
              : t('chat:cost.message', { count: costs.message })}
            {costs.minimum_message_cost && (
              <>
                {' '}
                ·{' '}
                {t('chat:cost.from', {
                  price: formatMoney(
                    costs.minimum_message_cost.costs,
                    costs.minimum_message_cost.currency,
                    locale,
                  ),
                })}
              </>
            )}
          </p>
        )}
      </footer>
    </div>
  );
}
