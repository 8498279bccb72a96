import { Link, redirect } from 'react-router';
import { ProfileGrid } from '#app/components/profile-card.tsx';
import { serverApi } from '#app/lib/api.ts';
import { countryName } from '#app/lib/countries.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/signup-matches';

export function meta({ data: loaded }: Route.MetaArgs) {
  return loaded ? [{ title: loaded.title }, { name: 'robots', content: 'noindex' }] : [];
}

export async function loader({ context }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  const me = await api('GET /api/user.php');
  if (!me.ok || !me.data.user) throw redirect('/signup');
  // The member's own search: the gender they seek, their country, people who seek them in turn.
  const found = await api('GET /api/search.php');
  const settings = await api('GET /api/settings.php');
  const strings = context.resources.landers ?? {};
  return {
    title: `${strings['matches.title'] ?? 'Suggested for you'} | ${settings.ok ? settings.data.name : ''}`,
    profiles: found.ok ? [...found.data.profiles, ...found.data.similar].slice(0, 12) : [],
    applied: found.ok ? found.data.applied : null,
  };
}

/** /signup-matches and /match-finder: "Suggested for you", people who fit what the new member asked for. */
export default function SignupMatches({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const { applied, profiles } = loaderData;
  return (
    <div className="container py-4" data-testid="suggested">
      <h1 className="h3">{t('landers:matches.title')}</h1>
      <p className="lead">{t('landers:matches.lead')}</p>
      {applied && (applied.gender || applied.country) && (
        <ul className="list-inline mb-3" aria-label={t('landers:matches.criteria')}>
          {applied.gender && (
            <li className="list-inline-item badge rounded-pill text-bg-light border">
              {t(`auth:seeking.${applied.gender}`)}
            </li>
          )}
          {applied.country && (
            <li className="list-inline-item badge rounded-pill text-bg-light border">
              {countryName(applied.country, locale)}
            </li>
          )}
          {applied.mutual && (
            <li className="list-inline-item badge rounded-pill text-bg-light border">
              {t('landers:matches.mutual')}
            </li>
          )}
        </ul>
      )}
      {profiles.length > 0 ? (
        <ProfileGrid profiles={profiles} />
      ) : (
        <p className="text-body-secondary">{t('landers:matches.none')}</p>
      )}
      <Link to="/members" className="btn btn-primary mt-3">
        {t('landers:matches.browse')}
      </Link>
    </div>
  );
}
