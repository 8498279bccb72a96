import { Link, redirect } from 'react-router';
import { useSignupModal } from '#app/components/signup-modal.tsx';
import { serverApi } from '#app/lib/api.ts';
import { photoLoading } from '#app/lib/first-row.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/home';

/** The front door for visitors; members go straight to the members area (spec §2: members is home after login). */
export async function loader({ context }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  const me = await api('GET /api/user.php');
  if (me.ok && me.data.user) throw redirect('/members');
  const featured = await api('GET /api/featured.php', { query: { limit: 8 } });
  return { profiles: featured.ok ? featured.data.profiles : [] };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const signupModal = useSignupModal();
  return (
    <section className="container py-5">
      <h1 className="display-5 fw-bold">{t('home.heading', { site: settings.name })}</h1>
      <p className="lead">{t('home.lead')}</p>
      <div className="d-flex flex-wrap gap-2 mb-5">
        <Link
          className="btn btn-primary btn-lg"
          to="/signup"
          onClick={(event) => {
            if (!signupModal) return;
            event.preventDefault();
            signupModal.open();
          }}
        >
          {t('home.signup')}
        </Link>
        <Link className="btn btn-outline-primary btn-lg" to="/login">
          {t('home.login')}
        </Link>
      </div>
      {loaderData.profiles.length > 0 && (
        <ul className="row row-cols-2 row-cols-sm-4 g-3 list-unstyled" aria-label={t('landers:nearYou')}>
          {loaderData.profiles.map((profile, index) => (
            <li key={profile.id} className="col">
              <figure className="mb-0">
                {profile.main_image && (
                  <img
                    src={profile.main_image.thumb_filename}
                    alt=""
                    width={240}
                    height={240}
                    {...photoLoading(index)}
                    decoding="async"
                    className="img-fluid rounded object-fit-cover w-100"
                  />
                )}
                <figcaption className="small mt-1">
                  <span className="fw-semibold">
                    {t('profile:card.age', { name: profile.name, age: profile.age })}
                  </span>
                  {profile.region_label && (
                    <span className="d-block text-body-secondary text-truncate">{profile.region_label}</span>
                  )}
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
