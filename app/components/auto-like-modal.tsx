import { useEffect, useState } from 'react';
import { Modal } from 'react-bootstrap';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '#app/lib/api.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useShownOnce } from '#app/lib/use-shown-once.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useCounts } from '#app/state/counts.tsx';
import { useMatchMoment } from '#app/state/match-moment.tsx';
import { useSession } from '#app/state/session.tsx';
import type { Profile } from '#contract/profiles.ts';

/** After an auto-like returns a profile, the likes are reloaded this much later (spec §4, §9). */
export const likesReloadDelayMs = 500;

/**
 * With ?t=<seconds> a like modal appears after that many seconds, showing a profile that likes the
 * member (GET /api/auto-like.php); then t is removed from the URL. Needs a logged-in member.
 */
export function AutoLikeModal() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { user } = useSession();
  const { reloadCounts } = useCounts();
  const { showMatch } = useMatchMoment();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [arrivals, setArrivals] = useState(0);
  const seconds = Number(params.get('t'));
  const active = user !== null && params.has('t') && Number.isFinite(seconds) && seconds >= 0;

  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(async () => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('t');
          return next;
        },
        { replace: true },
      );
      const answer = await api('GET /api/auto-like.php');
      if (!answer.ok || !answer.data.profile) return;
      setProfile(answer.data.profile);
      setArrivals((count) => count + 1);
    }, seconds * 1000);
    return () => clearTimeout(timer);
  }, [active, seconds, setParams]);

  // Keyed on arrivals, not on the modal: closing the modal early does not cancel the reload.
  useEffect(() => {
    if (arrivals === 0) return;
    const reload = setTimeout(
      () => void reloadCounts().catch((error: unknown) => reportCaught('likes reload', error)),
      likesReloadDelayMs,
    );
    return () => clearTimeout(reload);
  }, [arrivals, reloadCounts]);

  const likeBack = async (liked: Profile) => {
    setProfile(null);
    const result = await api('POST /api/like.php', { body: { profile: liked.id } });
    if (result.ok && result.data.match) showMatch(liked);
  };

  const mounted = useShownOnce(profile !== null);
  if (!mounted) return null;
  return (
    <Modal
      show={profile !== null}
      onHide={() => setProfile(null)}
      centered
      data-testid="like-modal"
      aria-labelledby="like-modal-title"
    >
      {profile && (
        <Modal.Body className="p-4 text-center">
          <h2 id="like-modal-title" className="h4">
            {t('likes:likeModal.title', { name: profile.name })}
          </h2>
          {profile.main_image && (
            <img
              src={profile.main_image.match}
              alt={profile.name}
              width={220}
              height={220}
              className="rounded-4 object-fit-cover my-3"
            />
          )}
          <div className="d-grid gap-2">
            <button
              type="button"
              className="btn btn-primary btn-lg"
              onClick={() => void likeBack(profile)}
              data-testid="like-back"
            >
              {t('discover:likes.likeBack')}
            </button>
            <button
              type="button"
              className="btn btn-outline-primary"
              onClick={() => {
                setProfile(null);
                void navigate(`/members/${profile.id}`);
              }}
            >
              {t('likes:likeModal.action')}
            </button>
          </div>
        </Modal.Body>
      )}
    </Modal>
  );
}
