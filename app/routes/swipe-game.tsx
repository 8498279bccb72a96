import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ArrowCounterclockwise, HeartFill, StarFill, XLg } from 'react-bootstrap-icons';
import { Link, redirect } from 'react-router';
import { Presence } from '#app/components/presence.tsx';
import { api, serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useMatchMoment } from '#app/state/match-moment.tsx';
import type { Profile } from '#contract/profiles.ts';
import type { Route } from './+types/swipe-game';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.swipeGame');
}

export async function loader({ context }: Route.LoaderArgs) {
  const answer = await serverApi(context.api)('GET /api/swipe.php');
  if (!answer.ok) throw redirect('/login?redirect=%2Fswipe-game');
  return answer.data;
}

/** How far a card must be dragged to count as a swipe; the stamps show from a third of it. */
const swipeThresholdPx = 90;

/**
 * The swipe game (spec §9: 4 likes a day): a card stack dragged with pointer events (LIKE and NOPE
 * stamps while dragging), buttons and arrow keys; the last pass can be undone.
 */
export default function SwipeGame({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [cards, setCards] = useState(loaderData.profiles);
  const [likesLeft, setLikesLeft] = useState(loaderData.likes_left);
  const [limitReached, setLimitReached] = useState(loaderData.likes_left === 0);
  const [lastPassed, setLastPassed] = useState<Profile | null>(null);
  const [limitHit, setLimitHit] = useState(false);
  const { showMatch } = useMatchMoment();
  const [drag, setDrag] = useState(0);
  const [dragging, setDragging] = useState(false);
  const start = useRef<number | null>(null);
  const busy = useRef(false);
  const card = cards[0];
  const next = cards[1];

  const refill = useCallback(async (keep: Profile[]) => {
    const answer = await api('GET /api/swipe.php');
    if (!answer.ok) return;
    const known = new Set(keep.map((profile) => profile.id));
    setCards([...keep, ...answer.data.profiles.filter((profile) => !known.has(profile.id))]);
  }, []);

  const decide = useCallback(
    async (like: boolean) => {
      if (!card || busy.current) return;
      if (like && limitReached) {
        setLimitHit(true);
        setDrag(0);
        return;
      }
      busy.current = true;
      try {
        const result = await api('POST /api/swipe.php', { body: { profile: card.id, like } });
        if (!result.ok) {
          if (result.code === 'daily_limit') {
            setLikesLeft(0);
            setLimitReached(true);
            setLimitHit(true);
          }
          return;
        }
        setLikesLeft(result.data.likes_left);
        setLimitReached(result.data.likes_left === 0);
        if (result.data.match) showMatch(card);
        setLastPassed(like ? null : card);
        const rest = cards.slice(1);
        setCards(rest);
        if (rest.length < 3) void refill(rest);
      } finally {
        busy.current = false;
        setDrag(0);
      }
    },
    [card, cards, limitReached, refill, showMatch],
  );

  const undo = useCallback(async () => {
    if (!lastPassed || busy.current) return;
    busy.current = true;
    try {
      const answer = await api('POST /api/swipe-undo.php', { body: { profile: lastPassed.id } });
      // Not ok: nothing to take back any more (a like came after it); the button goes away.
      if (answer.ok) {
        const back = answer.data.profile;
        setCards((current) => [back, ...current.filter((profile) => profile.id !== back.id)]);
      }
    } finally {
      setLastPassed(null);
      busy.current = false;
    }
  }, [lastPassed]);

  // The keys reach the newest decide and undo: set before the browser paints, so a key pressed as
  // soon as the count changed never runs an older closure that would like the same card again.
  const actions = useRef({ decide, undo });
  useLayoutEffect(() => {
    actions.current = { decide, undo };
  }, [decide, undo]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target;
      if (
        target instanceof HTMLInputElement ||
        target instanceof HTMLTextAreaElement ||
        document.querySelector('[role="dialog"]')
      )
        return;
      if (event.key === 'ArrowLeft') void actions.current.decide(false);
      if (event.key === 'ArrowRight') void actions.current.decide(true);
      if (event.key === 'Backspace' || (event.key === 'z' && (event.ctrlKey || event.metaKey)))
        void actions.current.undo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const stamp = Math.min(1, Math.abs(drag) / swipeThresholdPx);
  return (
    <div className="container py-3 swipe-page">
      <div className="d-flex align-items-baseline justify-content-between gap-2 mb-2">
        <h1 className="h4 mb-0">{t('likes:swipe.heading')}</h1>
        <p className="small fw-semibold mb-0" role="status" data-testid="likes-left">
          {t('likes:swipe.likesLeft', { count: likesLeft })}
        </p>
      </div>
      {limitReached && (
        <div
          className={`alert ${limitHit ? 'alert-warning' : 'alert-light'} d-flex align-items-center gap-2 py-2`}
          role="alert"
          data-testid="swipe-limit"
        >
          <span className="small">{t('likes:swipe.limit')}</span>
          <Link to="/premium" className="btn btn-primary btn-sm ms-auto text-nowrap">
            <StarFill aria-hidden="true" className="me-1" />
            {t('likes:swipe.getPremium')}
          </Link>
        </div>
      )}
      {card ? (
        <div className="swipe-stack">
          {next && (
            <div className="swipe-card is-behind" aria-hidden="true">
              {next.main_image && <img src={next.main_image.filename} alt="" width={440} height={480} />}
            </div>
          )}
          <div
            key={card.id}
            className={`swipe-card ${dragging ? '' : 'is-settling'}`}
            data-testid="swipe-card"
            style={{ transform: `translateX(${drag}px) rotate(${drag / 18}deg)` }}
            onPointerDown={(event) => {
              if ((event.target as HTMLElement).closest('a')) return;
              start.current = event.clientX;
              setDragging(true);
              event.currentTarget.setPointerCapture(event.pointerId);
            }}
            onPointerMove={(event) => {
              if (start.current !== null) setDrag(event.clientX - start.current);
            }}
            onPointerUp={() => {
              start.current = null;
              setDragging(false);
              if (drag > swipeThresholdPx) void decide(true);
              else if (drag < -swipeThresholdPx) void decide(false);
              else setDrag(0);
            }}
            onPointerCancel={() => {
              start.current = null;
              setDragging(false);
              setDrag(0);
            }}
          >
            {card.main_image ? (
              <img src={card.main_image.filename} alt="" width={440} height={480} draggable={false} />
            ) : (
              <div className="profile-card-empty" />
            )}
            {drag > swipeThresholdPx / 3 && (
              <span
                className="swipe-stamp swipe-stamp-like"
                style={{ opacity: stamp }}
                data-testid="stamp-like"
              >
                {t('discover:swipe.stampLike')}
              </span>
            )}
            {drag < -swipeThresholdPx / 3 && (
              <span
                className="swipe-stamp swipe-stamp-nope"
                style={{ opacity: stamp }}
                data-testid="stamp-nope"
              >
                {t('discover:swipe.stampNope')}
              </span>
            )}
            <div className="swipe-card-caption">
              <h2 className="h4 mb-1">
                <Link to={`/members/${card.id}`}>
                  {t('profile:card.age', { name: card.name, age: card.age })}
                </Link>
              </h2>
              <Presence of={card} region={card.region_label} />
            </div>
          </div>
        </div>
      ) : (
        <div className="empty-state my-3">
          <p className="mb-3">{t('likes:swipe.empty')}</p>
          <Link to="/members" className="btn btn-primary">
            {t('discover:swipe.toSearch')}
          </Link>
        </div>
      )}
      <div className="swipe-buttons">
        <button
          type="button"
          className="btn btn-light swipe-button is-small"
          onClick={() => void undo()}
          disabled={!lastPassed}
          aria-label={
            lastPassed ? t('discover:swipe.undoName', { name: lastPassed.name }) : t('discover:swipe.undo')
          }
          data-testid="swipe-undo"
        >
          <ArrowCounterclockwise aria-hidden="true" size={22} />
        </button>
        <button
          type="button"
          className="btn btn-light swipe-button text-danger"
          onClick={() => void decide(false)}
          disabled={!card}
          aria-label={t('likes:swipe.pass')}
        >
          <XLg aria-hidden="true" size={28} />
        </button>
        <button
          type="button"
          className="btn btn-primary swipe-button"
          onClick={() => void decide(true)}
          disabled={!card || limitReached}
          aria-label={t('likes:swipe.like')}
        >
          <HeartFill aria-hidden="true" size={28} />
        </button>
      </div>
      <p className="small text-body-secondary text-center mt-3 keyboard-hint" data-testid="keyboard-hint">
        {t('discover:swipe.keyboardHint')}
      </p>
    </div>
  );
}
