import { useTranslation } from 'react-i18next';
import { Link, redirect } from 'react-router';
import type { Profile } from '#contract/profiles.ts';
import type { UserResponse } from '#contract/users.ts';
import { ProfileGrid } from '../components/profile-card.tsx';
import { pageMeta } from '../lib/meta.ts';
import type { Route } from './+types/signup-matches';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.members');
}

export async function loader({ context }: Route.LoaderArgs) {
  const me = await context.api<UserResponse>('/api/user.php');
  if (!me.ok || !me.data.user) throw redirect('/signup');
  const featured = await context.api<{ profiles: Profile[] }>('/api/featured.php?limit=8');
  return { profiles: featured.ok ? featured.data.profiles : [] };
}

/** /signup-matches and /match-finder: first matches right after signup. */
export default function SignupMatches({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="container py-4">
      <h1 className="h3">{t('landers:matches.title')}</h1>
      <p className="lead">{t('landers:matches.lead')}</p>
      <ProfileGrid profiles={loaderData.profiles} />
      <Link to="/members" className="btn btn-primary mt-3">
        {t('landers:matches.browse')}
      </Link>
    </div>
  );
}
