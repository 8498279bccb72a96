import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Profile } from '#contract/profiles.ts';

/** "New like!" with the photo and a button; a click anywhere closes it (spec §4). */
export function MatchModal({ profile, onClose }: { profile: Profile | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      show={profile !== null}
      onHide={onClose}
      centered
      aria-labelledby="match-title"
      data-testid="match-modal"
    >
      {profile && (
        <Modal.Body className="p-4 text-center" onClick={onClose} role="presentation">
          <h2 id="match-title" className="h3 text-primary">
            {t('likes:match.title')}
          </h2>
          {profile.main_image && (
            <img
              src={profile.main_image.match}
              alt={profile.name}
              width={200}
              height={200}
              className="rounded-circle object-fit-cover my-3"
            />
          )}
          <p>{t('likes:match.text', { name: profile.name })}</p>
          <Link to={`/members/${profile.id}`} className="btn btn-primary">
            {t('likes:match.action')}
          </Link>
        </Modal.Body>
      )}
    </Modal>
  );
}
