import { useCallback, useEffect, useRef, useState } from 'react';
import { Heart, HeartFill } from 'react-bootstrap-icons';
import { Link, useLocation } from 'react-router';
import { api } from '#app/lib/api.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useMatchMoment } from '#app/state/match-moment.tsx';
import { useSession } from '#app/state/session.tsx';
import type { Profile } from '#contract/profiles.ts';
import { IcebreakerModal } from './icebreaker-modal.tsx';
import { onProfileOf } from './match-modal.tsx';
import { useSignupModal } from './signup-modal.tsx';

/** A like taken back is sent this much later, so "Undo" can keep it without the other member noticing. */
export const unlikeUndoMs = 5000;

/**
 * Like a member; a mutual like is a match (the match modal elsewhere, a note right here on their
 * profile). Tapping "Liked" takes the like back with a few seconds to undo. Visitors get the signup modal.
 */
export function LikeButton({ profile, liked: initiallyLiked }: { profile: Profile; liked: boolean }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const { showMatch } = useMatchMoment();
  const { pathname } = useLocation();
  const signupModal = useSignupModal();
  const [liked, setLiked] = useState(initiallyLiked);
  const [matched, setMatched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [icebreaker, setIcebreaker] = useState<Profile | null>(null);
  const [undoing, setUndoing] = useState(false);
  const pendingUnlike = useRef<ReturnType<typeof setTimeout> | null>(null);

  const commitUnlike = useCallback(() => {
    if (pendingUnlike.current === null) return;
    clearTimeout(pendingUnlike.current);
    pendingUnlike.current = null;
    setUndoing(false);
    void api('DELETE /api/like.php', { body: { profile: profile.id } }).then((result) => {
      if (!result.ok) setLiked(true);
    });
  }, [profile.id]);
  // Leaving the page sends a pending unlike at once.
  useEffect(() => commitUnlike, [commitUnlike]);

  const like = async () => {
    if (!user) return signupModal?.open();
    setError(null);
    const result = await api('POST /api/like.php', { body: { profile: profile.id } });
    if (!result.ok) {
      setError(result.status === 0 ? t('errors:internal_error') : result.error.message);
      return;
    }
    setLiked(true);
    if (result.data.match) {
      if (onProfileOf(pathname, profile.id)) setMatched(true);
      else showMatch(profile);
    } else setIcebreaker(profile);
  };

  const unlike = () => {
    setLiked(false);
    setMatched(false);
    setUndoing(true);
    pendingUnlike.current = setTimeout(commitUnlike, unlikeUndoMs);
  };

  const undo = () => {
    if (pendingUnlike.current !== null) clearTimeout(pendingUnlike.current);
    pendingUnlike.current = null;
    setUndoing(false);
    setLiked(true);
  };

  return (
    <>
      <button
        type="button"
        className={`btn ${liked ? 'btn-primary' : 'btn-outline-primary'}`}
        onClick={() => (liked ? unlike() : void like())}
        aria-pressed={liked}
        data-testid="like-button"
      >
        {liked ? (
          <HeartFill aria-hidden="true" className="me-1" />
        ) : (
          <Heart aria-hidden="true" className="me-1" />
        )}
        {liked ? t('profile:member.liked') : t('profile:member.like')}
      </button>
      <IcebreakerModal profile={icebreaker} onClose={() => setIcebreaker(null)} />
      {matched && (
        <div className="alert alert-success w-100 mb-0 d-flex align-items-center gap-2" role="status">
          <strong>{t('discover:match.title')}</strong>
          <Link to={`/members/${profile.id}/chat`} className="alert-link ms-auto">
            {t('discover:match.message')}
          </Link>
        </div>
      )}
      {undoing && (
        <div className="undo-toast" role="status" data-testid="unlike-toast">
          <span>{t('discover:unlike.done', { name: profile.name })}</span>
          <button type="button" className="btn btn-link btn-sm" onClick={undo}>
            {t('discover:undo')}
          </button>
        </div>
      )}
      {error && (
        <p className="text-danger small w-100 mb-0" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
