import { Modal } from 'react-bootstrap';
import { PersonFill, XLg } from 'react-bootstrap-icons';
import { Link, useLocation } from 'react-router';
import { useOptionalRootData } from '#app/lib/root-data.ts';
import { useShownOnce } from '#app/lib/use-shown-once.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Profile } from '#contract/profiles.ts';

/** Whether the page on screen is this member's profile (then the match shows there, not in a modal). */
export function onProfileOf(pathname: string, profileId: number): boolean {
  return new RegExp(`^/(members|likes/m)/${profileId}/?$`).test(pathname);
}

/**
 * The match moment: "It's a match!" with both photos, "Send a message" (opens the chat), "Keep
 * swiping" and a close button. Never shown while the member is already on that profile.
 */
export function MatchModal({ profile, onClose }: { profile: Profile | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const me = useOptionalRootData()?.user?.profile;
  const show = profile !== null && !onProfileOf(pathname, profile.id);
  const onSwipe = pathname === '/swipe-game';
  const mounted = useShownOnce(show);
  if (!mounted) return null;
  return (
    <Modal show={show} onHide={onClose} centered aria-labelledby="match-title" data-testid="match-modal">
      {profile && (
        <Modal.Body className="p-4 text-center position-relative">
          <button
            type="button"
            className="btn btn-light rounded-circle p-2 lh-1 position-absolute top-0 end-0 m-3"
            onClick={onClose}
            aria-label={t('discover:close')}
          >
            <XLg aria-hidden="true" />
          </button>
          <h2 id="match-title" className="match-title mt-2">
            {t('discover:match.title')}
          </h2>
          <p className="mb-0">{t('discover:match.text', { name: profile.name })}</p>
          <div className="match-photos" aria-hidden="true">
            {me?.main_image ? (
              <img src={me.main_image.match} alt="" width={112} height={112} />
            ) : (
              <span className="match-photo-empty">
                <PersonFill size={56} />
              </span>
            )}
            {profile.main_image ? (
              <img src={profile.main_image.match} alt="" width={112} height={112} />
            ) : (
              <span className="match-photo-empty">
                <PersonFill size={56} />
              </span>
            )}
          </div>
          <div className="d-grid gap-2">
            <Link
              to={`/members/${profile.id}/chat`}
              className="btn btn-primary btn-lg"
              onClick={onClose}
              data-testid="match-send-message"
            >
              {t('discover:match.message')}
            </Link>
            {onSwipe ? (
              <button type="button" className="btn btn-outline-primary" onClick={onClose}>
                {t('discover:match.keepSwiping')}
              </button>
            ) : (
              <Link to="/swipe-game" className="btn btn-outline-primary" onClick={onClose}>
                {t('discover:match.keepSwiping')}
              </Link>
            )}
          </div>
        </Modal.Body>
      )}
    </Modal>
  );
}
