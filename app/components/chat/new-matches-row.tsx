import { Link } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Profile } from '#contract/profiles.ts';

/**
 * New matches (mutual likes without a message yet) as a row of faces above the conversations: on
 * the Chats page and in the desktop chat's column. A profile without a photo shows its initial.
 */
export function NewMatchesRow({ matches, className = '' }: { matches: Profile[]; className?: string }) {
  const { t } = useTranslation();
  if (matches.length === 0) return null;
  return (
    <section className={className} aria-labelledby="new-matches">
      <h2 id="new-matches" className="h6 text-body-secondary">
        {t('chat:matches.title')}
      </h2>
      <ul className="list-unstyled d-flex gap-3 overflow-auto pb-1 mb-0" data-testid="new-matches">
        {matches.map((profile) => (
          <li key={profile.id} className="text-center flex-shrink-0" style={{ width: 72 }}>
            <Link to={`/members/${profile.id}/chat`} className="text-body text-decoration-none d-block">
              {profile.main_image ? (
                <img
                  src={profile.main_image.thumb_filename}
                  alt=""
                  width={64}
                  height={64}
                  className="rounded-circle object-fit-cover border border-2 border-primary"
                />
              ) : (
                <span
                  className="chat-avatar-initial fs-4"
                  style={{ width: 64, height: 64 }}
                  aria-hidden="true"
                >
                  {profile.name.slice(0, 1).toUpperCase()}
                </span>
              )}
              <span className="d-block small text-truncate">{profile.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
