import { StarFill } from 'react-bootstrap-icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Profile } from '#contract/profiles.ts';

/** A member in a result grid: photo, name, age and region; fictional profiles carry their marker. */
export function ProfileCard({ profile, to }: { profile: Profile; to?: string }) {
  const { t } = useTranslation();
  const href = to ?? `/members/${profile.id}`;
  return (
    <article className="card h-100 profile-card" data-testid="profile-card">
      <Link
        to={href}
        className="stretched-link text-decoration-none text-body"
        aria-label={t('profile:card.view', { name: profile.name })}
      >
        {profile.main_image ? (
          <img
            src={profile.main_image.thumb_filename}
            alt=""
            width={240}
            height={240}
            loading="lazy"
            decoding="async"
            className="card-img-top object-fit-cover"
          />
        ) : (
          <div className="card-img-top ratio ratio-1x1 bg-light" aria-hidden="true" />
        )}
      </Link>
      <div className="card-body p-2">
        <h3 className="h6 mb-0 text-truncate">
          {t('profile:card.age', { name: profile.name, age: profile.age })}
          {profile.fictional && (
            <span className="ms-1 text-warning" title={t('profile:member.fictional')}>
              <StarFill aria-hidden="true" size={12} />
              <span className="visually-hidden">{t('profile:member.fictional')}</span>
            </span>
          )}
        </h3>
        {profile.region_label && (
          <p className="small text-body-secondary mb-0 text-truncate">{profile.region_label}</p>
        )}
      </div>
    </article>
  );
}

export function ProfileGrid({ profiles }: { profiles: Profile[] }) {
  return (
    <ul className="row row-cols-2 row-cols-sm-3 row-cols-lg-4 g-3 list-unstyled">
      {profiles.map((profile) => (
        <li key={profile.id} className="col">
          <ProfileCard profile={profile} />
        </li>
      ))}
    </ul>
  );
}
