import { useTranslation } from 'react-i18next';
import { NavLink, redirect, useParams } from 'react-router';
import type { LikesResponse } from '#contract/likes.ts';
import type { Profile } from '#contract/profiles.ts';
import { ProfileCard } from '../components/profile-card.tsx';
import { pageMeta } from '../lib/meta.ts';
import type { Route } from './+types/likes';

export const handle = { membersArea: true };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.likes');
}

const types = ['received', 'given', 'matches'] as const;
type LikesType = (typeof types)[number];

export async function loader({ context, params }: Route.LoaderArgs) {
  if (params.type && !types.includes(params.type as LikesType)) throw redirect('/likes');
  const answer = await context.api<LikesResponse>('/api/likes.php');
  if (!answer.ok) throw redirect('/login?redirect=%2Flikes');
  return answer.data;
}

/** Likes (spec §2): who liked you (new first, opening a profile clears its flag), whom you liked, matches. */
export default function Likes({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const type = (useParams().type as LikesType | undefined) ?? 'received';
  const isNew = new Map(loaderData.liked_by.map((entry) => [entry.id, entry.like_new]));
  const lists: Record<LikesType, Profile[]> = {
    received: loaderData.received,
    given: loaderData.profiles,
    matches: loaderData.matches,
  };
  const shown = lists[type];
  return (
    <div className="container py-4">
      <h1 className="h3 mb-3">{t('page.likes')}</h1>
      <nav className="nav nav-pills mb-4" aria-label={t('page.likes')}>
        {types.map((tab) => (
          <NavLink
            key={tab}
            to={tab === 'received' ? '/likes' : `/likes/${tab}`}
            end
            className={({ isActive }) =>
              `nav-link${isActive || (tab === 'received' && type === 'received') ? ' active' : ''}`
            }
          >
            {t(`likes:tab.${tab}`)}
          </NavLink>
        ))}
      </nav>
      {shown.length === 0 ? (
        <p className="text-body-secondary">{t(`likes:empty.${type}`)}</p>
      ) : (
        <ul
          className="row row-cols-2 row-cols-sm-3 row-cols-lg-4 g-3 list-unstyled"
          data-testid={`likes-${type}`}
        >
          {shown.map((profile) => (
            <li key={profile.id} className="col position-relative">
              <ProfileCard
                profile={profile}
                to={type === 'received' ? `/likes/m/${profile.id}` : `/members/${profile.id}`}
              />
              {type === 'received' && isNew.get(profile.id) && (
                <span
                  className="badge text-bg-primary position-absolute top-0 start-0 m-3"
                  style={{ zIndex: 2 }}
                >
                  {t('likes:new')}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
