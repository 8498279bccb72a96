import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ArrowCounterclockwise, HeartFill, StarFill, XLg } from 'react-bootstrap-icons';
import { Link, redirect } from 'react-router';
import { Presence } from '#app/components/presence.tsx';
import { api, serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
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

/** A swiped card on its way out: which side, and where the finger let go of it. */
type Leaving = { key: number; profile: Profile; like: boolean; fromPx: number };

/**
 * A swiped card flying off to its side, then gone from the page. The page clips it while it flies
 * (.swipe-screen): a card left lying off to the side would widen a phone's page.
 */
function LeavingCard({ leaving, onGone }: { leaving: Leaving; onGone: (key: number) => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    const gone = () => onGone(leaving.key);
    if (
      !element ||
      typeof element.animate !== 'function' ||
      window.matchMedia('(prefers-reduced-motion: reduce)').matches
    ) {
      gone();
      return;
    }
    const side = leaving.like ? 1 : -1;
    const flight = element.animate(
      [
        { transform: `translateX(${leaving.fromPx}px) rotate(${leaving.fromPx / 18}deg)`, opacity: 1 },
        { transform: `translateX(${side * 130}%) rotate(${side * 22}deg)`, opacity: 0 },
      ],
      { duration: 350, easing: 'cubic-bezier(0.4, 0, 1, 1)', fill: 'forwards' },
    );
    flight.finished.then(gone, () => {
      // expected: cancelled because the page went away; there is no card left to remove.
    });
    return () => flight.cancel();
  }, [leaving, onGone]);
  const { profile, like } = leaving;
  return (
    <div ref={ref} className="swipe-card is-leaving" aria-hidden="true">
      {profile.main_image ? (
        <img src={profile.main_image.filename} alt="" width={440} height={480} draggable={false} />
      ) : (
        <div className="profile-card-empty" />
      )}
      <span className={`swipe-stamp ${like ? 'swipe-stamp-like' : 'swipe-stamp-nope'}`}>
        {t(like ? 'discover:swipe.stampLike' : 'discover:swipe.stampNope')}
      </span>
      <div className="swipe-card-caption">
        <p className="h4 mb-1">{t('profile:card.age', { name: profile.name, age: profile.age })}</p>
      </div>
    </div>
  );
}

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
  const [leaving, setLeaving] = useState<Leaving[]>([]);
  const start = useRef<number | null>(null);
  const flights = useRef(0);
  // Cards swiped on this page: a refill answered meanwhile never brings one back.
  const swiped = useRef(new Set<number>());
  const card = cards[0];
  const next = cards[1];

  const refill = useCallback(async () => {
    const answer = await api('GET /api/swipe.php');
    if (!answer.ok) return;
    setCards((current) => {
      const known = new Set(current.map((profile) => profile.id));
      const fresh = answer.data.profiles.filter(
        (profile) => !known.has(profile.id) && !swiped.current.has(profile.id),
      );
      return [...current, ...fresh];
    });
  }, []);
  const landed = useCallback((key: number) => {
    setLeaving((current) => current.filter((flight) => flight.key !== key));
  }, []);

  // The swipes go to the server one after another, in the order made, while the cards fly at once:
  // a quick second swipe is never dropped, and an undo always follows the pass it takes back.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const enqueue = useCallback((send: () => Promise<void>) => {
    queue.current = queue.current
      .then(send)
      .catch((error: unknown) => reportCaught('sending a swipe', error));
  }, []);

  /** A swipe: the card flies off at once; should the server refuse it, it comes back on top. */
  const decide = useCallback(
    (like: boolean, fromPx = 0) => {
      // A key pressed before the page caught up never swipes the same card twice.
      if (!card || swiped.current.has(card.id)) return;
      if (like && limitReached) {
        setLimitHit(true);
        setDrag(0);
        return;
      }
      const rest = cards.slice(1);
      flights.current += 1;
      setLeaving((current) => [...current, { key: flights.current, profile: card, like, fromPx }]);
      setCards(rest);
      setDrag(0);
      swiped.current.add(card.id);
      setLastPassed(like ? null : card);
      if (like) {
        setLikesLeft(Math.max(0, likesLeft - 1));
        if (likesLeft <= 1) setLimitReached(true);
      }
      enqueue(async () => {
        const result = await api('POST /api/swipe.php', { body: { profile: card.id, like } });
        if (!result.ok) {
          swiped.current.delete(card.id);
          setCards((current) => [card, ...current.filter((profile) => profile.id !== card.id)]);
          setLastPassed((current) => (current?.id === card.id ? null : current));
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
        if (rest.length < 3) await refill();
      });
    },
    [card, cards, enqueue, likesLeft, limitReached, refill, showMatch],
  );

  const undo = useCallback(() => {
    if (!lastPassed) return;
    const passed = lastPassed;
    setLastPassed(null);
    enqueue(async () => {
      const answer = await api('POST /api/swipe-undo.php', { body: { profile: passed.id } });
      // Not ok: nothing to take back any more (a like came after it); the button has gone already.
      if (answer.ok) {
        const back = answer.data.profile;
        swiped.current.delete(back.id);
        setCards((current) => [back, ...current.filter((profile) => profile.id !== back.id)]);
      }
    });
  }, [enqueue, lastPassed]);

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
      if (event.key === 'ArrowLeft') actions.current.decide(false);
      if (event.key === 'ArrowRight') actions.current.decide(true);
      if (event.key === 'Backspace' || (event.key === 'z' && (event.ctrlKey || event.metaKey)))
        actions.current.undo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const stamp = Math.min(1, Math.abs(drag) / swipeThresholdPx);
  return (
    <div className="swipe-screen">
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
        {card || leaving.length > 0 ? (
          <div className="swipe-stack">
            {next && (
              <div className="swipe-card is-behind" aria-hidden="true">
                {next.main_image && <img src={next.main_image.filename} alt="" width={440} height={480} />}
              </div>
            )}
            {card && (
              <div
                key={card.id}
                className={`swipe-card ${dragging ? '' : 'is-settling'} ${leaving.length > 0 ? 'is-arriving' : ''}`}
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
                  if (drag > swipeThresholdPx) decide(true, drag);
                  else if (drag < -swipeThresholdPx) decide(false, drag);
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
            )}
            {leaving.map((flight) => (
              <LeavingCard key={flight.key} leaving={flight} onGone={landed} />
            ))}
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
            onClick={undo}
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
            onClick={() => decide(false)}
            disabled={!card}
            aria-label={t('likes:swipe.pass')}
          >
            <XLg aria-hidden="true" size={28} />
          </button>
          <button
            type="button"
            className="btn btn-primary swipe-button"
            onClick={() => decide(true)}
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
    </div>
  );
}
