import { ArrowLeft, StarFill } from 'react-bootstrap-icons';
import { Link } from 'react-router';
import { Presence } from '#app/components/presence.tsx';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ChatResponse } from '#contract/chats.ts';
import { usualReplyText } from './off-shift.ts';

/** The partner above the thread: back to the list (phones), photo, name and age, last seen. */
export function ThreadHeader({
  profile,
  offShiftReplyMinutes,
}: {
  profile: ChatResponse['profile'];
  /** A fictional profile whose team is off shift: how fast it usually answers then. */
  offShiftReplyMinutes: number | null;
}) {
  const { t } = useTranslation();
  return (
    <header className="d-flex align-items-center gap-2 border-bottom px-2 py-2 bg-body">
      <Link to="/chats" className="btn btn-link text-body px-2 d-lg-none" aria-label={t('chat:back')}>
        <ArrowLeft aria-hidden="true" size={20} />
      </Link>
      {profile.main_image ? (
        <img
          src={profile.main_image.thumb_filename}
          alt=""
          width={40}
          height={40}
          className="rounded-circle object-fit-cover"
        />
      ) : (
        // Without a photo the partner still has a face in the head: the initial, as chat apps do.
        <span className="chat-avatar-initial" aria-hidden="true">
          {profile.name.slice(0, 1).toUpperCase()}
        </span>
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
        <Presence of={profile} region={profile.region_label} className="text-body-secondary mw-100" />
        {offShiftReplyMinutes !== null && (
          <p className="small text-body-secondary mb-0" data-testid="usual-reply">
            {usualReplyText(offShiftReplyMinutes, t)}
          </p>
        )}
      </div>
    </header>
  );
}
