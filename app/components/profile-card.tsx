import type { ReactNode } from 'react';
import { StarFill } from 'react-bootstrap-icons';
import { Link } from 'react-router';
import { photoLoading } from '#app/lib/first-row.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Profile } from '#contract/profiles.ts';
import { Presence } from './presence.tsx';

/**
 * A member in a result grid: a tall photo with name, age, presence and region on it; fictional
 * profiles carry their marker. `actions` (like back, chat) sit under the photo, above the link.
 */
export function ProfileCard({
  profile,
  to,
  actions,
  badge,
  headingLevel = 3,
  index = Number.POSITIVE_INFINITY,
}: {
  profile: Profile;
  to?: string;
  actions?: ReactNode;
  badge?: ReactNode;
  /** 2 where the grid follows the page's h1 directly, 3 under a section's h2 (no level skipped). */
  headingLevel?: 2 | 3;
  /** The card's place in its grid: the first row's photos load at once (app/lib/first-row.ts). */
  index?: number;
}) {
  const { t } = useTranslation();
  const href = to ?? `/members/${profile.id}`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="profile-card" data-testid="profile-card">
      <div className="profile-card-photo">
        {profile.main_image ? (
          <img
            src={profile.main_image.thumb_filename}
            alt=""
            width={240}
            height={300}
            {...photoLoading(index)}
            decoding="async"
          />
        ) : (
          <EmptyPhoto profile={profile} />
        )}
        {badge && <div className="profile-card-badge">{badge}</div>}
        <div className="profile-card-caption">
          <Heading className="profile-card-name">
            {/* Named by what it shows (name and age): a label of its own would hide it from voice control. */}
            <Link to={href} className="stretched-link">
              {t('profile:card.age', { name: profile.name, age: profile.age })}
            </Link>
            {profile.fictional && (
              <span className="ms-1 text-warning" title={t('profile:member.fictional')}>
                <StarFill aria-hidden="true" size={12} />
                <span className="visually-hidden">{t('profile:member.fictional')}</span>
              </span>
            )}
          </Heading>
          <Presence of={profile} compact className="profile-card-line" />
          {profile.region_label && <p className="profile-card-line mb-0">{profile.region_label}</p>}
        </div>
      </div>
      {actions && <div className="profile-card-actions">{actions}</div>}
    </article>
  );
}

/** The soft colours of photo-less cards (`.profile-card-empty-N` in _discover.scss). */
const emptyPhotoShades = 8;

/**
 * A member without a photo: their initial on a soft colour of their own (from the id, so it never
 * changes), not a blank tile, and neighbours in a grid rarely share one.
 */
function EmptyPhoto({ profile }: { profile: Profile }) {
  return (
    <div
      className={`profile-card-empty profile-card-empty-${profile.id % emptyPhotoShades}`}
      aria-hidden="true"
      data-testid="profile-card-initial"
    >
      <span className="profile-card-initial">{[...profile.name.trim()][0]?.toLocaleUpperCase() ?? ''}</span>
    </div>
  );
}

export function ProfileGrid({ profiles, headingLevel }: { profiles: Profile[]; headingLevel?: 2 | 3 }) {
  return (
    <ul className="profile-grid list-unstyled" data-testid="profile-grid">
      {profiles.map((profile, index) => (
        <li key={profile.id}>
          <ProfileCard profile={profile} index={index} {...(headingLevel ? { headingLevel } : {})} />
        </li>
      ))}
    </ul>
  );
}
