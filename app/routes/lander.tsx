import { ChatHeart, Heart, Search, ShieldCheck } from 'react-bootstrap-icons';
import { useTranslation } from 'react-i18next';
import { data, Link, useMatches, useParams } from 'react-router';
import type { Profile } from '#contract/profiles.ts';
import { SignupForm } from '../components/signup-form.tsx';
import { useRootData } from '../lib/root-data.ts';
import type { Route } from './+types/lander';

export const landerNames = [
  'alonetonight',
  'collagelanding',
  'gallery',
  'iconslanding',
  'maplanding',
  'socialnetwork',
  'transitionsvideolanding',
  'video',
  'tinderswipe',
] as const;
type LanderName = (typeof landerNames)[number];

const titles: Record<LanderName, string> = {
  alonetonight: 'alonetonight.title',
  collagelanding: 'collage.title',
  gallery: 'gallery.title',
  iconslanding: 'icons.title',
  maplanding: 'map.title',
  socialnetwork: 'social.title',
  transitionsvideolanding: 'transitions.title',
  video: 'video.title',
  tinderswipe: 'tinder.title',
};

function nameOf(matches: readonly { id: string }[], param: string | undefined): LanderName | undefined {
  const candidate = matches.at(-1)?.id === 'landers-tinderswipe' ? 'tinderswipe' : param;
  return (landerNames as readonly string[]).includes(candidate ?? '') ? (candidate as LanderName) : undefined;
}

export function meta({ data: loaded }: Route.MetaArgs) {
  if (!loaded) return [];
  return [{ title: loaded.title }, { name: 'description', content: loaded.description }];
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const isTinder = new URL(request.url).pathname.startsWith('/landers/tinderswipe');
  const name = isTinder ? 'tinderswipe' : params.name;
  if (!name || !(landerNames as readonly string[]).includes(name)) throw data(null, { status: 404 });
  const [featured, settings] = await Promise.all([
    context.api<{ profiles: Profile[] }>('/api/featured.php?limit=12'),
    context.api<{ name: string; description: string }>('/api/settings.php'),
  ]);
  const common = context.resources.landers ?? {};
  const title = (common[titles[name as LanderName]] ?? settings.data.name).replace(
    '{site}',
    settings.data.name,
  );
  return {
    profiles: featured.ok ? featured.data.profiles : [],
    title: `${title} | ${settings.data.name}`,
    description: settings.data.description,
  };
}

function Thumb({ profile, size = 160 }: { profile: Profile; size?: number }) {
  const { t } = useTranslation();
  return (
    <figure className="mb-0 position-relative">
      {profile.main_image && (
        <img
          src={profile.main_image.thumb_filename}
          alt=""
          width={size}
          height={size}
          loading="lazy"
          decoding="async"
          className="img-fluid rounded object-fit-cover w-100"
        />
      )}
      <figcaption className="small mt-1">
        <span className="fw-semibold">{t('profile:card.age', { name: profile.name, age: profile.age })}</span>
        {profile.region_label && (
          <span className="d-block text-body-secondary text-truncate">{profile.region_label}</span>
        )}
      </figcaption>
    </figure>
  );
}

function Grid({ profiles, columns = 'row-cols-3 row-cols-md-6' }: { profiles: Profile[]; columns?: string }) {
  return (
    <ul className={`row ${columns} g-2 list-unstyled`}>
      {profiles.map((profile) => (
        <li key={profile.id} className="col">
          <Thumb profile={profile} />
        </li>
      ))}
    </ul>
  );
}

function SignupPanel() {
  const { t } = useTranslation();
  return (
    <section className="card shadow-sm" id="signup">
      <div className="card-body">
        <h2 className="h5">{t('landers:formHeading')}</h2>
        <SignupForm next="/signup-matches" />
      </div>
    </section>
  );
}

/** Landing pages for ad traffic (spec §2): distinct, server-rendered, real profiles, signup right there. */
export default function Lander({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const name = nameOf(useMatches(), useParams().name) ?? 'gallery';
  const { profiles } = loaderData;
  const site = settings.name;
  const region = profiles.find((profile) => profile.region_label)?.region_label;

  const hero = (title: string, lead: string, tone = 'bg-light') => (
    <header className={`py-5 ${tone}`}>
      <div className="container">
        <h1 className="display-5 fw-bold">{title}</h1>
        <p className="lead mb-4">{lead}</p>
        <a href="#signup" className="btn btn-primary btn-lg">
          {t('landers:cta')}
        </a>
      </div>
    </header>
  );

  const body = (() => {
    switch (name) {
      case 'alonetonight':
        return (
          <>
            {hero(t('landers:alonetonight.title'), t('landers:alonetonight.lead'), 'bg-dark text-white')}
            <div className="container py-4">
              <h2 className="h5">
                <span className="badge text-bg-success me-2">{t('landers:online')}</span>
                {t('landers:nearYou')}
              </h2>
              <Grid profiles={profiles.slice(0, 6)} />
            </div>
          </>
        );
      case 'collagelanding':
        return (
          <>
            <div className="container py-4">
              <ul className="row row-cols-4 row-cols-md-6 g-1 list-unstyled mb-3" aria-hidden="true">
                {profiles.map((profile) =>
                  profile.main_image ? (
                    <li key={profile.id} className="col">
                      <img
                        src={profile.main_image.thumb_filename}
                        alt=""
                        width={120}
                        height={120}
                        loading="lazy"
                        className="img-fluid"
                      />
                    </li>
                  ) : null,
                )}
              </ul>
              <h1 className="h2 fw-bold">{t('landers:collage.title')}</h1>
              <p className="lead">{t('landers:collage.lead', { site })}</p>
            </div>
          </>
        );
      case 'iconslanding':
        return (
          <>
            {hero(t('landers:icons.title'), t('landers:video.lead'))}
            <div className="container py-4">
              <ul className="row row-cols-2 row-cols-md-4 g-3 list-unstyled text-center">
                {[
                  [Search, 'icons.search'],
                  [Heart, 'icons.like'],
                  [ChatHeart, 'icons.chat'],
                  [ShieldCheck, 'icons.safe'],
                ].map(([Icon, key]) => {
                  const Glyph = Icon as typeof Search;
                  return (
                    <li key={key as string} className="col">
                      <Glyph aria-hidden="true" size={36} className="text-primary mb-2" />
                      <p className="mb-0">{t(`landers:${key as string}`)}</p>
                    </li>
                  );
                })}
              </ul>
              <Grid profiles={profiles.slice(0, 4)} columns="row-cols-2 row-cols-md-4" />
            </div>
          </>
        );
      case 'maplanding':
        return (
          <>
            {hero(t('landers:map.title'), t('landers:map.lead'))}
            <div className="container py-4">
              <h2 className="h5">{region ? t('landers:nearRegion', { region }) : t('landers:nearYou')}</h2>
              <Grid profiles={profiles.slice(0, 8)} columns="row-cols-2 row-cols-md-4" />
            </div>
          </>
        );
      case 'socialnetwork':
        return (
          <>
            {hero(t('landers:social.title', { site }), t('landers:social.lead'))}
            <div className="container py-4" style={{ maxWidth: 640 }}>
              <ul className="list-unstyled">
                {profiles.slice(0, 4).map((profile) => (
                  <li key={profile.id} className="card mb-3">
                    <div className="card-body">
                      <p className="small text-body-secondary">
                        {t('landers:social.posted', { name: profile.name })}
                      </p>
                      <Thumb profile={profile} size={480} />
                    </div>
                  </li>
                ))}
              </ul>
            </div>
          </>
        );
      case 'transitionsvideolanding':
      case 'video':
        return (
          <>
            <header className="lander-motion position-relative overflow-hidden text-white bg-dark">
              <div className="lander-motion-strip" aria-hidden="true">
                {profiles
                  .slice(0, 8)
                  .map((profile) =>
                    profile.main_image ? (
                      <img
                        key={profile.id}
                        src={profile.main_image.thumb_filename}
                        alt=""
                        width={200}
                        height={200}
                        loading="lazy"
                      />
                    ) : null,
                  )}
              </div>
              <div className="container py-5 position-relative">
                <h1 className="display-5 fw-bold">
                  {t(name === 'video' ? 'landers:video.title' : 'landers:transitions.title')}
                </h1>
                <p className="lead">
                  {t(name === 'video' ? 'landers:video.lead' : 'landers:transitions.lead')}
                </p>
                <a href="#signup" className="btn btn-primary btn-lg">
                  {t('landers:cta')}
                </a>
              </div>
            </header>
            <div className="container py-4">
              <Grid profiles={profiles.slice(0, 6)} />
            </div>
          </>
        );
      case 'tinderswipe': {
        const first = profiles[0];
        return (
          <div className="container py-4 text-center" style={{ maxWidth: 420 }}>
            <h1 className="h2 fw-bold">{t('landers:tinder.title')}</h1>
            <p>{t('landers:tinder.lead')}</p>
            {first && (
              <div className="card shadow-sm mb-3">
                <Thumb profile={first} size={400} />
              </div>
            )}
            <div className="d-flex justify-content-center gap-3 mb-4">
              <a href="#signup" className="btn btn-lg btn-outline-secondary">
                {t('landers:tinder.pass')}
              </a>
              <a href="#signup" className="btn btn-lg btn-primary">
                {t('landers:tinder.like')}
              </a>
            </div>
          </div>
        );
      }
      default:
        return (
          <>
            {hero(t('landers:gallery.title'), t('landers:gallery.lead'))}
            <div className="container py-4">
              <Grid profiles={profiles.slice(0, 9)} columns="row-cols-3" />
            </div>
          </>
        );
    }
  })();

  return (
    <div data-lander={name}>
      {body}
      <div className="container pb-5" style={{ maxWidth: 560 }}>
        <SignupPanel />
        <p className="text-center mt-3">
          <Link to="/login">{t('auth:signup.haveAccount')}</Link>
        </p>
      </div>
    </div>
  );
}
