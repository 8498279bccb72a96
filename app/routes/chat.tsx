import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  ArrowLeft,
  Camera,
  Check2,
  CheckAll,
  Clock,
  ExclamationCircle,
  Gift,
  Image,
  StarFill,
} from 'react-bootstrap-icons';
import { data, Link, redirect } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ChatListItem, Message } from '#contract/chats.ts';
import type { BundlesResponse } from '#contract/payments.ts';
import { ChatList, withMessage } from '../components/chat/chat-list.tsx';
import { GiftArt } from '../components/chat/gift-art.tsx';
import { Presence } from '../components/presence.tsx';
import { SpendChoice, SpendCost } from '../components/spend-choice.tsx';
import { withReturn } from '../lib/after-payment.ts';
import { api, serverApi } from '../lib/api.ts';
import { formatMoney, useDates } from '../lib/format.ts';
import { giftName } from '../lib/gift-name.ts';
import { pageMeta } from '../lib/meta.ts';
import { useRootData } from '../lib/root-data.ts';
import type { ConvoItem, ConvoView, Draft, FailReason } from '../state/chat/convo.ts';

type UploadDraft = Extract<Draft, { kind: 'upload' }>;

import { useCounts } from '#app/state/counts.tsx';
import { useLiveConnection } from '#app/state/live-connection.tsx';
import { useSession } from '#app/state/session.tsx';
import { useConvo } from '../state/chat/use-convo.ts';
import type { Route } from './+types/chat';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.chats');
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  const [chat, gifts, own, list] = await Promise.all([
    api('GET /api/chat.php', { query: { conversation: Number(params.id) || 0 } }),
    api('GET /api/gifts.php'),
    api('GET /api/profile.php'),
    api('GET /api/chats.php'),
  ]);
  if (!chat.ok) {
    if (chat.code === 'authentication_required')
      throw redirect(`/login?redirect=${encodeURIComponent(new URL(request.url).pathname)}`);
    // A deleted, banned or blocking partner, or a conversation that is gone: "no longer available".
    if (chat.code === 'blocked' || chat.code === 'not_found' || chat.code === 'validation_failed') {
      return { unavailable: true as const, chats: list.ok ? list.data.chats : [] };
    }
    throw data(null, { status: chat.status || 500 });
  }
  return {
    unavailable: false as const,
    chat: chat.data,
    gifts: gifts.ok ? gifts.data.gifts : [],
    photos: own.ok ? own.data.profile.photos : [],
    chats: list.ok ? list.data.chats : [],
  };
}

const draftKey = (conversation: number) => `chat-draft:${conversation}`;
/** Messages of one side within this time form one group of bubbles. */
const groupGapMs = 5 * 60_000;

type Row =
  | { type: 'day'; key: string; label: string }
  | { type: 'item'; key: string; item: ConvoItem; mine: boolean; first: boolean; last: boolean };

function createdAt(item: ConvoItem): string {
  return item.state === 'sent' ? item.message.created_at : item.createdAt;
}

/** Day separators and bubble groups over the conversation's items. */
function rowsOf(items: ConvoItem[], dayOf: (value: string) => string): Row[] {
  const rows: Row[] = [];
  let lastDay = '';
  items.forEach((item, index) => {
    const at = createdAt(item);
    const day = dayOf(at);
    if (day !== lastDay) {
      rows.push({ type: 'day', key: `d${index}`, label: day });
      lastDay = day;
    }
    const mine = item.state !== 'sent' || item.message.mine;
    const near = (other: ConvoItem | undefined) =>
      other !== undefined &&
      (other.state !== 'sent' || other.message.mine) === mine &&
      Math.abs(new Date(createdAt(other)).getTime() - new Date(at).getTime()) < groupGapMs &&
      dayOf(createdAt(other)) === day;
    rows.push({
      type: 'item',
      key: item.key,
      item,
      mine,
      first: !near(items[index - 1]),
      last: !near(items[index + 1]),
    });
  });
  return rows;
}

function Bubble({
  row,
  view,
  gifts,
}: {
  row: Extract<Row, { type: 'item' }>;
  view: ConvoView;
  gifts: { id: number; slug: string; image: string; names: Record<string, string> }[];
}) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const dates = useDates();
  const { item, mine } = row;
  const message: Message | null = item.state === 'sent' ? item.message : null;
  const draft: Draft | null = item.state === 'sent' ? null : item.draft;
  const radius = mine
    ? `1rem ${row.first ? '1rem' : '.35rem'} ${row.last ? '1rem' : '.35rem'} 1rem`
    : `${row.first ? '1rem' : '.35rem'} 1rem 1rem ${row.last ? '1rem' : '.35rem'}`;
  const draftGift = draft?.kind === 'gift' ? gifts.find((gift) => gift.id === draft.gift) : undefined;
  let body: ReactNode = null;
  if (message?.kind === 'text' || draft?.kind === 'text') {
    body = (
      <p className="mb-0 chat-text">{message ? message.text : draft?.kind === 'text' ? draft.text : ''}</p>
    );
  } else if (message?.kind === 'photo' && message.photo) {
    body = (
      <img
        src={message.photo.thumb_filename}
        alt={t('chat:list.photo')}
        width={180}
        height={180}
        className="rounded object-fit-cover"
        loading="lazy"
      />
    );
  } else if (draft?.kind === 'upload') {
    body = (
      <img
        src={draft.preview}
        alt={t('chat:list.photo')}
        width={180}
        height={180}
        className="rounded object-fit-cover"
      />
    );
  } else if (draft?.kind === 'photo') {
    body = <span>{t('chat:list.photo')}</span>;
  } else if (message?.gift || draftGift) {
    const gift = message?.gift ?? draftGift;
    body = gift ? (
      <span className="d-flex align-items-center gap-2">
        <GiftArt slug={gift.slug} image={gift.image} />
        {giftName(t, locale, gift)}
      </span>
    ) : null;
  }
  const read = message !== null && mine && message.id <= view.readUpTo;
  return (
    <li
      className={`d-flex ${mine ? 'justify-content-end' : 'justify-content-start'} ${row.last ? 'mb-2' : 'mb-1'}`}
      data-testid="chat-message"
      data-state={item.state}
    >
      <div style={{ maxWidth: 'min(78%, 32rem)' }}>
        <div
          className={`chat-bubble px-3 py-2 ${mine ? 'bg-primary text-white' : 'bg-body-secondary'} ${item.state === 'pending' ? 'opacity-75' : ''}`}
          style={{ borderRadius: radius, maxWidth: '100%' }}
        >
          {body}
        </div>
        {(row.last || item.state !== 'sent') && (
          <small
            className={`d-flex align-items-center gap-1 mt-1 text-body-secondary ${mine ? 'justify-content-end' : ''}`}
          >
            <time dateTime={createdAt(item)} suppressHydrationWarning>
              {dates.time(createdAt(item))}
            </time>
            {item.state === 'pending' && (
              <span data-testid="message-pending">
                <Clock aria-hidden="true" /> {t('chat:status.sending')}
              </span>
            )}
            {message && mine && (
              <span
                data-testid={read ? 'message-read' : 'message-sent'}
                className={read ? 'text-primary' : ''}
              >
                {read ? <CheckAll aria-hidden="true" /> : <Check2 aria-hidden="true" />}
                <span className="visually-hidden">{read ? t('chat:read') : t('chat:sent')}</span>
              </span>
            )}
          </small>
        )}
        {item.state === 'failed' && (
          <div className="d-flex justify-content-end align-items-center gap-2 small text-danger" role="alert">
            <ExclamationCircle aria-hidden="true" />
            <span data-testid="message-failed">
              {item.reason === 'offline'
                ? t('chat:status.failedOffline')
                : (item.detail ?? t('chat:status.failed'))}
            </span>
            {'retry' in view && (
              <button
                type="button"
                className="btn btn-link btn-sm p-0"
                onClick={() => view.retry(item.clientId)}
                data-testid="message-retry"
              >
                {t('chat:retry')}
              </button>
            )}
            <button
              type="button"
              className="btn btn-link btn-sm p-0 text-body-secondary"
              onClick={() => view.discard(item.clientId)}
            >
              {t('chat:discard')}
            </button>
          </div>
        )}
      </div>
    </li>
  );
}

/**
 * Bundles to top up without losing the conversation: the links carry the way back (`?return=`, kept
 * through the checkout and the payment's return page) and the draft waits in this tab's storage.
 */
function QuickPick({ conversation, onLeave }: { conversation: number; onLeave: () => void }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const [bundles, setBundles] = useState<BundlesResponse['bundles'] | null>(null);
  useEffect(() => {
    void api('GET /api/bundles.php').then((answer) => setBundles(answer.ok ? answer.data.bundles : []));
  }, []);
  const back = `/chats/${conversation}`;
  return (
    <div className="border rounded-3 p-2 mb-2" data-testid="credits-quick-pick">
      <p className="small fw-semibold mb-2">{t('chat:quickPick.title')}</p>
      <div className="d-flex gap-2 flex-wrap">
        {(bundles ?? []).slice(0, 3).map((bundle) => (
          <Link
            key={bundle.id}
            to={withReturn(`/credits/${bundle.id}`, back)}
            className="btn btn-outline-primary btn-sm"
            onClick={onLeave}
          >
            {t('chat:quickPick.credits', { count: bundle.credits })} ·{' '}
            {formatMoney(bundle.price, bundle.currency, locale)}
          </Link>
        ))}
        <Link to={withReturn('/credits', back)} className="btn btn-link btn-sm" onClick={onLeave}>
          {t('chat:quickPick.more')}
        </Link>
      </div>
    </div>
  );
}

/**
 * A photo from the device (camera or gallery): picking shows it with its price, and only the
 * confirming tap sends it. The server re-encodes it (EXIF gone) for this message only; it never
 * becomes a profile photo.
 */
function DevicePhoto({ cost, onSend }: { cost: number; onSend: (draft: UploadDraft) => void }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<UploadDraft | null>(null);
  return (
    <div className="mb-2">
      <label className="btn btn-outline-secondary btn-sm device-photo">
        <Camera aria-hidden="true" className="me-1" />
        {t('chat:photo.upload')}
        <input
          type="file"
          accept="image/*"
          className="visually-hidden"
          data-testid="device-photo-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            if (picked) URL.revokeObjectURL(picked.preview);
            setPicked({ kind: 'upload', file, preview: URL.createObjectURL(file) });
          }}
        />
      </label>
      {picked && (
        <div className="d-flex align-items-center gap-2 mt-2" data-testid="device-photo-picked">
          <img
            src={picked.preview}
            alt={t('chat:photo.option')}
            width={56}
            height={56}
            className="rounded object-fit-cover"
          />
          <SpendCost credits={cost} />
          <button
            type="button"
            className="btn btn-primary btn-sm"
            data-testid="spend-confirm"
            onClick={() => {
              setPicked(null);
              onSend(picked);
            }}
          >
            {cost === 0 ? t('credits:spend.sendFree') : t('credits:spend.confirm', { count: cost })}
          </button>
          <button
            type="button"
            className="btn btn-link btn-sm"
            onClick={() => {
              URL.revokeObjectURL(picked.preview);
              setPicked(null);
            }}
          >
            {t('credits:spend.cancel')}
          </button>
        </div>
      )}
    </div>
  );
}

function Thread({
  loaderData,
}: {
  loaderData: Extract<Route.ComponentProps['loaderData'], { unavailable: false }>;
}) {
  const { t } = useTranslation();
  const dates = useDates();
  const { locale, settings } = useRootData();
  const { socket, connection } = useLiveConnection();
  const { setOpenConversation } = useCounts();
  const { user, setUser } = useSession();
  const { chat, gifts } = loaderData;
  const conversation = chat.conversation.id;
  const { photos } = loaderData;
  const [costs, setCosts] = useState(chat.costs);
  const [text, setText] = useState('');
  const [warning, setWarning] = useState(false);
  const [typing, setTyping] = useState(false);
  const [panel, setPanel] = useState<'gift' | 'photo' | null>(null);
  const [outOf, setOutOf] = useState<FailReason | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const lastTyping = useRef(0);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const view = useConvo(
    chat,
    { socket, connection },
    {
      onSent: (outcome) => {
        setUser((current) => (current ? { ...current, credits: outcome.credits } : current));
        setCosts((current) =>
          outcome.message.kind === 'text' && outcome.message.credits === 0
            ? { ...current, free_messages_left: Math.max(0, current.free_messages_left - 1) }
            : current,
        );
        setWarning(outcome.warning === 'contact_details');
        setOutOf(null);
        sessionStorage.removeItem(draftKey(conversation));
      },
      onFailed: (reason, draft) => {
        if (reason === 'insufficient_credits' || reason === 'premium_required') setOutOf(reason);
        // The draft survives a trip to the checkout and back.
        if (reason === 'insufficient_credits' && draft.kind === 'text')
          sessionStorage.setItem(draftKey(conversation), draft.text);
      },
      onTyping: () => {
        setTyping(true);
        clearTimeout(typingTimer.current);
        typingTimer.current = setTimeout(() => setTyping(false), 3000);
      },
    },
  );

  useEffect(() => {
    const saved = sessionStorage.getItem(draftKey(conversation));
    if (saved) setText(saved);
  }, [conversation]);
  useEffect(() => {
    setOpenConversation(conversation);
    return () => setOpenConversation(null);
  }, [conversation, setOpenConversation]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: stay at the newest message whenever one is added.
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [view.items.length]);

  const { profile } = chat;
  const rows = rowsOf(view.items, (value) => dates.day(value));
  const nextCost = costs.free_messages_left > 0 ? 0 : costs.message;
  const send = (draft: Draft) => {
    view.send(draft);
    setPanel(null);
    if (draft.kind === 'text') setText('');
  };
  const submit = () => {
    const trimmed = text.trim();
    if (trimmed) send({ kind: 'text', text: trimmed });
  };

  return (
    <section
      className="flex-grow-1 d-flex flex-column min-w-0"
      style={{ height: '100dvh' }}
      aria-label={profile.name}
    >
      <header className="d-flex align-items-center gap-2 border-bottom px-2 py-2 bg-body">
        <Link to="/chats" className="btn btn-link text-body px-2 d-lg-none" aria-label={t('chat:back')}>
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
        <div className="flex-grow-1 min-w-0">
          <h1 className="h6 mb-0">
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
          <Presence
            lastActive={profile.last_active}
            region={profile.region_label}
            className="text-body-secondary mw-100"
          />
        </div>
      </header>
      {view.status === 'reconnecting' && (
        <div className="alert alert-warning rounded-0 mb-0 py-1 small text-center" role="status">
          {t('chat:connection.reconnecting')}
        </div>
      )}
      {view.status === 'offline' && (
        <div
          className="alert alert-secondary rounded-0 mb-0 py-1 small text-center"
          role="status"
          data-testid="chat-offline"
        >
          {t('chat:connection.offline')}
        </div>
      )}
      <div ref={list} className="flex-grow-1 overflow-auto px-3 pt-2 pb-3" data-testid="chat-scroller">
        {view.status === 'ready' && view.hasOlder && (
          <div className="text-center mb-2">
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              onClick={() => view.loadOlder()}
            >
              {t('chat:older')}
            </button>
          </div>
        )}
        {view.items.length === 0 && (
          <p className="text-center text-body-secondary mt-4">{t('chat:empty', { name: profile.name })}</p>
        )}
        <ol className="list-unstyled mb-0" aria-live="polite">
          {rows.map((row) =>
            row.type === 'day' ? (
              <li key={row.key} className="text-center my-2">
                <span className="badge rounded-pill text-bg-light fw-normal" suppressHydrationWarning>
                  {row.label}
                </span>
              </li>
            ) : (
              <Bubble key={row.key} row={row} view={view} gifts={gifts} />
            ),
          )}
        </ol>
        {typing && (
          <p className="small text-body-secondary fst-italic mb-0">
            {t('chat:typing', { name: profile.name })}
          </p>
        )}
      </div>
      <footer
        className="border-top bg-body px-2 pt-2"
        style={{ paddingBottom: 'max(.75rem, env(safe-area-inset-bottom))' }}
      >
        {!chat.can_reply && (
          <p className="small text-body-secondary mb-2">{t('chat:cannotReply', { name: profile.name })}</p>
        )}
        {outOf === 'insufficient_credits' && (
          <QuickPick
            conversation={conversation}
            onLeave={() => {
              // Text typed since the failed send is the draft that waits for the way back.
              if (text.trim()) sessionStorage.setItem(draftKey(conversation), text);
            }}
          />
        )}
        {outOf === 'premium_required' && (
          <div className="alert alert-info py-2 small mb-2" role="status">
            <Link to="/premium" className="alert-link">
              {t('chat:getPremium')}
            </Link>
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
            onSpend={(gift) => send({ kind: 'gift', gift: gift.id })}
            renderOption={(gift) => (
              <>
                <GiftArt slug={gift.slug} image={gift.image} size={40} />
                <span className="d-block small">{giftName(t, locale, gift)}</span>
              </>
            )}
          />
        )}
        {panel === 'photo' && (
          <>
            <DevicePhoto cost={costs.photo} onSend={send} />
            {photos.length > 0 && (
              <SpendChoice
                label={t('chat:composer.photo')}
                options={photos}
                keyOf={(photo) => photo.id}
                costOf={() => costs.photo}
                onSpend={(photo) => send({ kind: 'photo', photo: photo.id })}
                renderOption={(photo) => (
                  <img
                    src={photo.thumb_filename}
                    alt={t('chat:photo.numbered', { number: photos.indexOf(photo) + 1 })}
                    width={56}
                    height={56}
                    className="rounded object-fit-cover"
                  />
                )}
              />
            )}
          </>
        )}
        <form
          className="d-flex gap-2 align-items-end"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => setPanel(panel === 'gift' ? null : 'gift')}
            aria-label={t('chat:composer.gift')}
            aria-pressed={panel === 'gift'}
            disabled={!chat.can_reply}
          >
            <Gift aria-hidden="true" />
          </button>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => setPanel(panel === 'photo' ? null : 'photo')}
            aria-label={t('chat:composer.photo')}
            aria-pressed={panel === 'photo'}
            disabled={!chat.can_reply}
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
                socket?.send({ type: 'typing', conversation });
              }
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                submit();
              }
            }}
          />
          <button type="submit" className="btn btn-primary" disabled={!text.trim() || !chat.can_reply}>
            {t('chat:composer.send')}
          </button>
        </form>
        <p className="small text-body-secondary mb-0 mt-1 d-flex flex-wrap gap-2" data-testid="chat-cost">
          {user && <span data-testid="chat-balance">{t('chat:balance', { count: user.credits })}</span>}
          <span>
            {costs.free_messages_left > 0
              ? t('chat:cost.free', { count: costs.free_messages_left })
              : t('chat:cost.message', { count: nextCost })}
          </span>
          {costs.minimum_message_cost && (
            <span>
              {t('chat:cost.from', {
                price: formatMoney(
                  costs.minimum_message_cost.costs,
                  costs.minimum_message_cost.currency,
                  locale,
                ),
              })}
            </span>
          )}
        </p>
      </footer>
    </section>
  );
}

/** A conversation: the thread full screen on a phone; beside the conversation list from 992 px. */
export default function Chat({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { socket } = useLiveConnection();
  const [chats, setChats] = useState<ChatListItem[]>(loaderData.chats);
  useEffect(() => setChats(loaderData.chats), [loaderData.chats]);
  const activeId = loaderData.unavailable ? undefined : loaderData.chat.conversation.id;
  const activeChat = loaderData.unavailable ? null : loaderData.chat;
  // The list beside the thread follows the messages as they arrive (no re-fetch).
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
  return (
    <div className="chat-screen d-flex" style={{ height: '100dvh' }}>
      <nav
        className="d-none d-lg-flex flex-column border-end overflow-auto flex-shrink-0"
        style={{ width: 340 }}
        aria-label={t('chat:sidebar')}
      >
        <h2 className="h5 px-3 pt-3 mb-2">
          <Link to="/chats" className="text-body text-decoration-none">
            {t('page.chats')}
          </Link>
        </h2>
        <ChatList chats={chats} {...(activeId !== undefined ? { activeId } : {})} />
      </nav>
      {loaderData.unavailable ? (
        <section className="flex-grow-1 d-flex flex-column align-items-center justify-content-center p-4 text-center">
          <h1 className="h5" data-testid="chat-unavailable">
            {t('chat:unavailable')}
          </h1>
          <p className="text-body-secondary">{t('chat:unavailableHint')}</p>
          <Link to="/chats" className="btn btn-primary">
            {t('chat:back')}
          </Link>
        </section>
      ) : (
        <Thread key={loaderData.chat.conversation.id} loaderData={loaderData} />
      )}
    </div>
  );
}
