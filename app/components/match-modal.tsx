import { type RefObject, useEffect, useRef } from 'react';
import { Modal } from 'react-bootstrap';
import { XLg } from 'react-bootstrap-icons';
import { Link, useLocation } from 'react-router';
import { useOptionalRootData } from '#app/lib/root-data.ts';
import { useShownOnce } from '#app/lib/use-shown-once.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Profile } from '#contract/profiles.ts';

/** Whether the page on screen is this member's profile (then the match shows there, not in a modal). */
export function onProfileOf(pathname: string, profileId: number): boolean {
  return new RegExp(`^/(members|likes/m)/${profileId}/?$`).test(pathname);
}

/** One of the two faces: the match photo, or the initial on the brand's colour (never a blank disc). */
function MatchFace({ name, image }: { name: string; image: Profile['main_image'] | undefined }) {
  if (image) return <img src={image.match} alt="" width={112} height={112} />;
  return (
    <span className="match-photo-initial" data-testid="match-initial">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/**
 * Tab and Shift+Tab go round the dialog's own controls while it is open: the modal alone only pulls
 * the focus back to its frame once it has left, so a Tab after the last button went to the page.
 */
function useTabCycle(box: RefObject<HTMLElement | null>, active: boolean) {
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || !box.current) return;
      const controls = [...box.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
      const first = controls[0];
      const last = controls.at(-1);
      if (!first || !last) return;
      const focused = document.activeElement;
      const inside = focused instanceof Node && box.current.contains(focused);
      const target = event.shiftKey
        ? !inside || focused === first
          ? last
          : null
        : !inside || focused === last
          ? first
          : null;
      if (!target) return;
      event.preventDefault();
      target.focus();
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [box, active]);
}

/**
 * The match moment: "It's a match!" with both photos, "Send a message" (opens the chat), "Keep
 * swiping" and a close button. On a phone (up to 600 px) it takes the whole screen, as the dating
 * apps show it; on a desktop it is a card over the page. The close button comes last in the tab
 * order (it sits in the corner): the first Tab lands on "Send a message". Tab goes round the
 * dialog's controls, Escape closes it. Never shown while the member is already on that profile.
 */
export function MatchModal({ profile, onClose }: { profile: Profile | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const me = useOptionalRootData()?.user?.profile;
  const show = profile !== null && !onProfileOf(pathname, profile.id);
  const onSwipe = pathname === '/swipe-game';
  const mounted = useShownOnce(show);
  const body = useRef<HTMLDivElement>(null);
  useTabCycle(body, show);
  if (!mounted) return null;
  return (
    <Modal
      show={show}
      onHide={onClose}
      centered
      keyboard
      enforceFocus
      dialogClassName="match-dialog"
      aria-labelledby="match-title"
      data-testid="match-modal"
    >
      {profile && (
        <Modal.Body ref={body} className="match-body p-4 text-center position-relative">
          <h2 id="match-title" className="match-title mt-2">
            {t('discover:match.title')}
          </h2>
          <p className="mb-0">{t('discover:match.text', { name: profile.name })}</p>
          <div className="match-photos" aria-hidden="true">
            <MatchFace name={me?.name ?? ''} image={me?.main_image} />
            <MatchFace name={profile.name} image={profile.main_image} />
          </div>
          <div className="match-actions d-grid gap-2">
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
          <button
            type="button"
            className="match-close btn btn-light rounded-circle p-2 lh-1 position-absolute top-0 end-0 m-3"
            onClick={onClose}
            aria-label={t('discover:close')}
          >
            <XLg aria-hidden="true" />
          </button>
        </Modal.Body>
      )}
    </Modal>
  );
}
