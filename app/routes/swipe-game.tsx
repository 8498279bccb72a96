import { useCallback, useEffect, useRef, useState } from 'react';
import { Heart, XLg } from 'react-bootstrap-icons';
import { useTranslation } from 'react-i18next';
import { Link, redirect } from 'react-router';
import type { Profile } from '#contract/profiles.ts';
import { ApiError, apiFetch } from '../lib/api-client.ts';
import { pageMeta } from '../lib/meta.ts';
import { useLiveState } from '../state/live-state.tsx';
import type { Route } from './+types/swipe-game';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.swipeGame');
}

export async function loader({ context }: Route.LoaderArgs) {
  const answer = await context.api<{ profiles: Profile[]; likes_left: number }>('/api/swipe.php');
  if (!answer.ok) throw redirect('/login?redirect=%2Fswipe-game');
  return answer.data;
}

/** How far a card must be dragged to count as a swipe. */
const swipeThresholdPx = 90;

/** The swipe game (spec §9: 4 likes a day): buttons, arrow keys and touch gestures. */
export default function SwipeGame({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [cards, setCards] = useState(loaderData.profiles);
  const [likesLeft, setLikesLeft] = useState(loaderData.likes_left);
  const [limitReached, setLimitReached] = useState(loaderData.likes_left === 0);
  const { showMatch } = useLiveState();
  const [drag, setDrag] = useState(0);
  const start = useRef<number | null>(null);
  const busy = useRef(false);
  const card = cards[0];

  const refill = useCallback(async () => {
    const next = await apiFetch<{ profiles: Profile[]; likes_left: number }>('/api/swipe.php').catch(
      () => null,
    );
    if (next) setCards(next.profiles);
  }, []);

  const decide = useCallback(
    async (like: boolean) => {
      if (!card || busy.current) return;
      if (like && limitReached) return;
      busy.current = true;
      try {
        const result = await apiFetch<{ likes_left: number; match: boolean }>('/api/swipe.php', {
          method: 'POST',
          body: { profile: card.id, like },
        });
        setLikesLeft(result.likes_left);
        setLimitReached(result.likes_left === 0);
        if (result.match) showMatch(card);
        const rest = cards.slice(1);
        setCards(rest);
        if (rest.length < 3) void refill();
      } catch (error) {
        if (error instanceof ApiError && error.code === 'daily_limit') {
          setLikesLeft(0);
          setLimitReached(true);
        }
      } finally {
        busy.current = false;
        setDrag(0);
      }
    },
    [card, cards, limitReached, refill, showMatch],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
      if (event.key === 'ArrowLeft') void decide(false);
      if (event.key === 'ArrowRight') void decide(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [decide]);

  return (
    <div className="container py-4" style={{ maxWidth: 480 }}>
      <h1 className="h3">{t('likes:swipe.heading')}</h1>
      <p className="text-body-secondary mb-2">{t('likes:swipe.lead')}</p>
      <p className="fw-semibold" role="status" data-testid="likes-left">
        {t('likes:swipe.likesLeft', { count: likesLeft })}
      </p>
      {limitReached && (
        <div className="alert alert-warning" role="alert" data-testid="swipe-limit">
          {t('likes:swipe.limit')}{' '}
          <Link to="/premium" className="alert-link">
            {t('likes:swipe.getPremium')}
          </Link>
        </div>
      )}
      {card ? (
        <div
          className="card shadow-sm swipe-card"
          data-testid="swipe-card"
          style={{ transform: `translateX(${drag}px) rotate(${drag / 20}deg)`, touchAction: 'pan-y' }}
          onPointerDown={(event) => {
            start.current = event.clientX;
          }}
          onPointerMove={(event) => {
            if (start.current !== null) setDrag(event.clientX - start.current);
          }}
          onPointerUp={() => {
            start.current = null;
            if (drag > swipeThresholdPx) void decide(true);
            else if (drag < -swipeThresholdPx) void decide(false);
            else setDrag(0);
          }}
          onPointerCancel={() => {
            start.current = null;
            setDrag(0);
          }}
        >
          {card.main_image ? (
            <img
              src={card.main_image.filename}
              alt=""
              width={480}
              height={480}
              className="card-img-top object-fit-cover"
              draggable={false}
            />
          ) : (
            <div className="ratio ratio-1x1 bg-light" />
          )}
          <div className="card-body">
            <h2 className="h5 mb-0">
              <Link to={`/members/${card.id}`}>
                {t('profile:card.age', { name: card.name, age: card.age })}
              </Link>
            </h2>
            {card.region_label && <p className="text-body-secondary mb-0">{card.region_label}</p>}
          </div>
        </div>
      ) : (
        <p>{t('likes:swipe.empty')}</p>
      )}
      {card && (
        <div className="d-flex justify-content-center gap-4 mt-3">
          <button
            type="button"
            className="btn btn-lg btn-outline-secondary rounded-circle p-3"
            onClick={() => void decide(false)}
            aria-label={t('likes:swipe.pass')}
          >
            <XLg aria-hidden="true" size={28} />
          </button>
          <button
            type="button"
            className="btn btn-lg btn-primary rounded-circle p-3"
            onClick={() => void decide(true)}
            disabled={limitReached}
            aria-label={t('likes:swipe.like')}
          >
            <Heart aria-hidden="true" size={28} />
          </button>
        </div>
      )}
      <p className="small text-body-secondary text-center mt-3">{t('likes:swipe.keyboardHint')}</p>
    </div>
  );
}
