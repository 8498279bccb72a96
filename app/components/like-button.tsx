import { useState } from 'react';
import { Heart, HeartFill } from 'react-bootstrap-icons';
import { useTranslation } from 'react-i18next';
import type { Profile } from '#contract/profiles.ts';
import { ApiError, apiFetch } from '../lib/api-client.ts';
import { useLiveState } from '../state/live-state.tsx';
import { IcebreakerModal } from './icebreaker-modal.tsx';
import { useSignupModal } from './signup-modal.tsx';

/** Like a member; a mutual like opens the match modal. Visitors get the signup modal instead. */
export function LikeButton({ profile, liked: initiallyLiked }: { profile: Profile; liked: boolean }) {
  const { t } = useTranslation();
  const { user, showMatch } = useLiveState();
  const signupModal = useSignupModal();
  const [liked, setLiked] = useState(initiallyLiked);
  const [error, setError] = useState<string | null>(null);
  const [icebreaker, setIcebreaker] = useState<Profile | null>(null);

  const like = async () => {
    if (!user) return signupModal?.open();
    setError(null);
    try {
      const result = await apiFetch<{ match: boolean }>('/api/like.php', {
        method: 'POST',
        body: { profile: profile.id },
      });
      setLiked(true);
      if (result.match) showMatch(profile);
      else setIcebreaker(profile);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : t('errors:internal_error'));
    }
  };

  return (
    <>
      <button
        type="button"
        className={`btn ${liked ? 'btn-primary' : 'btn-outline-primary'}`}
        onClick={() => void like()}
        disabled={liked}
        aria-pressed={liked}
      >
        {liked ? (
          <HeartFill aria-hidden="true" className="me-1" />
        ) : (
          <Heart aria-hidden="true" className="me-1" />
        )}
        {liked ? t('profile:member.liked') : t('profile:member.like')}
      </button>
      <IcebreakerModal profile={icebreaker} onClose={() => setIcebreaker(null)} />
      {error && (
        <p className="text-danger small w-100 mb-0" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
