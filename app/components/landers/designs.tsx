import type { ReactNode } from 'react';
import type { LanderSignupResult } from '#app/lib/lander-signup.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { LanderMapResponse, LanderMediaResponse, LanderName } from '#contract/landers.ts';
import type { Profile } from '#contract/profiles.ts';
import { LanderSignup, ProfilePhoto, useAgeLabel } from './lander-parts.tsx';

export type LanderView = {
  name: LanderName;
  site: string;
  profiles: Profile[];
  map: LanderMapResponse | null;
  media: LanderMediaResponse | null;
  suggestion: string;
  result: LanderSignupResult | undefined;
};

type DesignProps = { view: LanderView };

/** Minutes since a profile's last activity, as the live-looking "active n min ago" (1–59). */
function minutesAgo(profile: Profile, index: number): number {
  return ((profile.id * 7 + index * 3) % 25) + 1;
}

function Signup({
  view,
  heading,
  lead,
  id,
}: {
  view: LanderView;
  heading?: string;
  lead?: string;
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <LanderSignup
      result={view.result}
      suggestion={view.suggestion}
      heading={heading ?? t('landers:formHeading')}
      {...(lead ? { lead } : {})}
      {...(id ? { id } : {})}
    />
  );
}

function Cta({ children, tone = 'primary' }: { children: ReactNode; tone?: 'primary' | 'light' }) {
  return (
    <a href="#signup" className={`lander-btn lander-btn--${tone} lander-btn--block`}>
      {children}
    </a>
  );
}

/** tinderswipe: a real card stack; drag or tap Like/Pass; a like or the third swipe opens signup. */
function TinderSwipe({ view }: DesignProps) {
  const { t } = useTranslation();
  const age = useAgeLabel();
  const cards = view.profiles.slice(0, 6).reverse();
  const first = cards.at(-1);
  return (
    <>
      <section className="ts-intro">
        <h1>{t('landers:tinder.title')}</h1>
        <p>{t('landers:tinder.lead')}</p>
      </section>
      <section className="ts-stack" data-swipe-stack="" aria-label={t('landers:tinder.stack')}>
        {cards.map((profile, index) => (
          <article
            key={profile.id}
            className="ts-card"
            data-swipe-card=""
            data-label={age(profile)}
            data-match-title={t('landers:tinder.matchTitle', { name: profile.name })}
            data-testid="swipe-card"
          >
            <ProfilePhoto
              profile={profile}
              size="main"
              hero={index === cards.length - 1}
              width={360}
              height={480}
              alt={age(profile)}
            />
            <div className="ts-card-info">
              <h2>{age(profile)}</h2>
              {profile.region_label && <p>{profile.region_label}</p>}
            </div>
            <span className="ts-stamp ts-stamp--like" aria-hidden="true">
              {t('landers:tinder.like')}
            </span>
            <span className="ts-stamp ts-stamp--pass" aria-hidden="true">
              {t('landers:tinder.pass')}
            </span>
          </article>
        ))}
      </section>
      <p className="visually-hidden" aria-live="polite" data-swipe-status="">
        {first ? age(first) : ''}
      </p>
      <div className="ts-actions">
        <a href="#signup" className="ts-round ts-round--pass" data-swipe="pass">
          <span aria-hidden="true">✕</span>
          <span className="visually-hidden">{t('landers:tinder.pass')}</span>
        </a>
        <a href="#signup" className="ts-round ts-round--like" data-swipe="like">
          <span aria-hidden="true">♥</span>
          <span className="visually-hidden">{t('landers:tinder.like')}</span>
        </a>
      </div>
      <p className="ts-hint">{t('landers:tinder.hint')}</p>
      <div className="ts-sheet" data-swipe-signup="">
        <Signup view={view} heading={t('landers:tinder.matchLead')} />
      </div>
    </>
  );
}

/** alonetonight: dark and urgent, who is online right now, a live-looking activity ticker. */
function AloneTonight({ view }: DesignProps) {
  const { t } = useTranslation();
  const age = useAgeLabel();
  const people = view.profiles.slice(0, 6);
  const online = 20 + ((view.profiles.length * 13) % 40);
  const activity = view.profiles.slice(0, 4).map((profile, index) => {
    const kind = (['wink', 'online', 'photo', 'message'] as const)[index % 4] ?? 'online';
    return { id: profile.id, text: t(`landers:alonetonight.activity.${kind}`, { name: profile.name }) };
  });
  return (
    <>
      <section className="at-hero">
        <p className="at-live">
          <span className="at-dot" aria-hidden="true" />
          {t('landers:alonetonight.online', { count: online })}
        </p>
        <h1>{t('landers:alonetonight.title')}</h1>
        <p className="at-lead">{t('landers:alonetonight.lead')}</p>
        <Cta>{t('landers:alonetonight.cta')}</Cta>
      </section>
      {activity.length > 0 && (
        <section className="at-ticker" aria-label={t('landers:alonetonight.activityHeading')}>
          <ul>
            {activity.map((item, index) => (
              <li key={item.id} style={{ animationDelay: `${index * 3}s` }}>
                {item.text}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="at-grid" aria-label={t('landers:nearYou')}>
        <ul>
          {people.map((profile, index) => (
            <li key={profile.id} className="at-person" data-testid="online-profile">
              <ProfilePhoto profile={profile} hero={index === 0} width={240} height={240} />
              <span className="at-badge">
                <span className="at-dot" aria-hidden="true" />
                {index < 3
                  ? t('landers:online')
                  : t('landers:alonetonight.minutesAgo', { count: minutesAgo(profile, index) })}
              </span>
              <p>
                <strong>{age(profile)}</strong>
                {profile.region_label && <span>{profile.region_label}</span>}
              </p>
            </li>
          ))}
        </ul>
      </section>
      <Signup view={view} heading={t('landers:alonetonight.signup')} />
    </>
  );
}

/** collagelanding: a full-bleed mosaic of faces behind the promise. */
function Collage({ view }: DesignProps) {
  const { t } = useTranslation();
  const tiles = view.profiles.slice(0, 11);
  return (
    <>
      <section className="cl-hero">
        <ul className="cl-mosaic" aria-hidden="true" data-testid="collage">
          {tiles.map((profile, index) => (
            <li key={profile.id} className={`cl-tile cl-tile--${index % 5}`}>
              <ProfilePhoto profile={profile} hero={index === 0} width={240} height={240} />
            </li>
          ))}
        </ul>
        <div className="cl-card">
          <h1>{t('landers:collage.title')}</h1>
          <p>{t('landers:collage.lead', { site: view.site })}</p>
          <Cta>{t('landers:cta')}</Cta>
        </div>
      </section>
      <Signup view={view} />
    </>
  );
}

/** gallery: tap a card, see the profile (CSS :target, no script), then sign up to say hello. */
function Gallery({ view }: DesignProps) {
  const { t } = useTranslation();
  const age = useAgeLabel();
  const people = view.profiles.slice(0, 8);
  return (
    <>
      <section className="gl-intro">
        <h1>{t('landers:gallery.title')}</h1>
        <p>{t('landers:gallery.lead')}</p>
      </section>
      <ul className="gl-grid" id="gallery">
        {people.map((profile, index) => (
          <li key={profile.id}>
            <a href={`#p${profile.id}`} className="gl-card" data-testid="gallery-card">
              <ProfilePhoto profile={profile} hero={index === 0} width={240} height={300} />
              <span className="gl-name">{age(profile)}</span>
              {profile.region_label && <span className="gl-region">{profile.region_label}</span>}
              <span className="visually-hidden">{t('landers:gallery.open', { name: profile.name })}</span>
            </a>
          </li>
        ))}
      </ul>
      {people.map((profile) => (
        <section
          key={profile.id}
          id={`p${profile.id}`}
          className="gl-preview"
          aria-label={age(profile)}
          data-testid="gallery-preview"
        >
          <div className="gl-preview-box">
            <a href="#gallery" className="gl-close">
              <span aria-hidden="true">✕</span>
              <span className="visually-hidden">{t('landers:gallery.close')}</span>
            </a>
            <ProfilePhoto profile={profile} size="main" width={360} height={360} alt={age(profile)} />
            <h2>{age(profile)}</h2>
            {profile.region_label && <p className="gl-region">{profile.region_label}</p>}
            {profile.about && <p className="gl-about">{profile.about}</p>}
            {profile.interests.length > 0 && (
              <ul className="gl-tags" aria-label={t('landers:gallery.interests')}>
                {profile.interests.slice(0, 5).map((interest) => (
                  <li key={interest}>{t(`profile:interest.${interest}`)}</li>
                ))}
              </ul>
            )}
            <a href="#signup" className="lander-btn lander-btn--primary lander-btn--block">
              {t('landers:gallery.hello', { name: profile.name })}
            </a>
          </div>
        </section>
      ))}
      <Signup view={view} />
    </>
  );
}

const benefitIcons: Record<string, ReactNode> = {
  search: (
    <path d="M10.5 3a7.5 7.5 0 0 1 5.9 12.1l4.2 4.2-1.4 1.4-4.2-4.2A7.5 7.5 0 1 1 10.5 3Zm0 2a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11Z" />
  ),
  like: (
    <path d="M12 21s-7.5-4.6-9.4-9.3C1.3 8.3 3.4 4.5 7 4.5c2 0 3.4 1.1 5 3 1.6-1.9 3-3 5-3 3.6 0 5.7 3.8 4.4 7.2C19.5 16.4 12 21 12 21Z" />
  ),
  chat: (
    <path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm3 6v2h10v-2H7Z" />
  ),
  safe: (
    <path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5l-8-3Zm-1.2 13.6-3.5-3.5 1.4-1.4 2.1 2.1 4.9-4.9 1.4 1.4-6.3 6.3Z" />
  ),
  free: (
    <path d="M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20Zm1 5h-2v1.1A3 3 0 0 0 9 11c0 1.7 1.4 2.3 2.6 2.7 1.1.4 1.4.6 1.4 1.1 0 .5-.5.8-1.2.8-.8 0-1.5-.4-1.9-1l-1.6 1.1c.5.8 1.6 1.5 2.7 1.7V19h2v-1.6a2.9 2.9 0 0 0 2-2.8c0-1.9-1.6-2.5-2.8-2.9-1-.4-1.2-.5-1.2-.9 0-.4.4-.7 1-.7.6 0 1.1.3 1.4.7l1.5-1.2A3.4 3.4 0 0 0 13 8.1V7Z" />
  ),
  mobile: (
    <path d="M7 2h10a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Zm0 3v13h10V5H7Zm5 14.2a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z" />
  ),
};

/** iconslanding: what you get, one icon each, and a few faces. */
function Icons({ view }: DesignProps) {
  const { t } = useTranslation();
  const faces = view.profiles.slice(0, 5);
  return (
    <>
      <section className="ic-hero">
        <ul className="ic-faces" aria-hidden="true">
          {faces.map((profile, index) => (
            <li key={profile.id}>
              <ProfilePhoto profile={profile} hero={index === 0} width={72} height={72} />
            </li>
          ))}
        </ul>
        <h1>{t('landers:icons.title')}</h1>
        <p>{t('landers:icons.lead')}</p>
      </section>
      <ul className="ic-benefits" data-testid="benefits">
        {Object.entries(benefitIcons).map(([key, icon]) => (
          <li key={key}>
            <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
              {icon}
            </svg>
            <span>{t(`landers:icons.${key}`)}</span>
          </li>
        ))}
      </ul>
      <Signup view={view} />
    </>
  );
}

/** maplanding: the visitor's country with singles per region, and the singles of the top region. */
function MapLander({ view }: DesignProps) {
  const { t } = useTranslation();
  const age = useAgeLabel();
  const map = view.map;
  const focus = map?.regions.find((region) => region.code === map.focus);
  const people = focus ? view.profiles.filter((profile) => profile.countryregion === focus.code) : [];
  const max = Math.max(1, ...(map?.regions.map((region) => region.singles) ?? [1]));
  return (
    <>
      <section className="mp-intro">
        <h1>{focus ? t('landers:nearRegion', { region: focus.name }) : t('landers:map.title')}</h1>
        <p>{t('landers:map.lead')}</p>
      </section>
      {map?.outline && (
        <figure className="mp-map">
          <svg
            viewBox={map.view_box}
            role="img"
            aria-labelledby="map-title"
            data-testid="region-map"
            preserveAspectRatio="xMidYMid meet"
          >
            <title id="map-title">{t('landers:map.label', { country: map.country_name })}</title>
            <defs>
              <clipPath id="map-clip">
                <path d={map.outline} />
              </clipPath>
            </defs>
            <path d={map.outline} className="mp-land" />
            <g clipPath="url(#map-clip)">
              {map.regions.map((region) => (
                <path
                  key={region.code}
                  d={region.path}
                  className={`mp-region${region.code === map.focus ? ' mp-region--focus' : ''}`}
                  style={{ fillOpacity: 0.15 + (0.75 * region.singles) / max }}
                  data-region={region.code}
                >
                  <title>
                    {region.name}: {t('landers:map.singles', { count: region.singles })}
                  </title>
                </path>
              ))}
            </g>
            <path d={map.outline} className="mp-outline" />
            {map.regions
              .filter((region) => region.singles > 0)
              .map((region) => (
                <g key={region.code} className="mp-pin">
                  <circle cx={region.x} cy={region.y} r={region.code === map.focus ? 13 : 10} />
                  <text x={region.x} y={region.y + 3.5} textAnchor="middle">
                    {region.singles}
                  </text>
                </g>
              ))}
          </svg>
          <figcaption>{map.country_name}</figcaption>
        </figure>
      )}
      {map && (
        <ul className="mp-regions" aria-label={t('landers:map.regionsHeading')} data-testid="map-regions">
          {map.regions
            .filter((region) => region.singles > 0)
            .slice(0, 6)
            .map((region) => (
              <li key={region.code} className={region.code === map.focus ? 'is-focus' : undefined}>
                <span>{region.name}</span>
                <span className="mp-count">{t('landers:map.singles', { count: region.singles })}</span>
              </li>
            ))}
        </ul>
      )}
      {people.length > 0 && focus && (
        <section className="mp-people" aria-label={t('landers:nearRegion', { region: focus.name })}>
          <ul>
            {people.slice(0, 6).map((profile) => (
              <li key={profile.id} data-testid="region-profile" data-region={profile.countryregion ?? ''}>
                <ProfilePhoto profile={profile} width={120} height={120} />
                <span>{age(profile)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <Signup view={view} />
    </>
  );
}

/** socialnetwork: a feed of posts with stories on top, like a social app. */
function Social({ view }: DesignProps) {
  const { t } = useTranslation();
  const age = useAgeLabel();
  const stories = view.profiles.slice(0, 8);
  const posts = view.profiles.slice(0, 4);
  return (
    <>
      <section className="sn-intro">
        <h1>{t('landers:social.title', { site: view.site })}</h1>
        <p>{t('landers:social.lead')}</p>
      </section>
      <section className="sn-stories" aria-label={t('landers:social.stories')}>
        <ul>
          {stories.map((profile) => (
            <li key={profile.id}>
              <a href="#signup">
                <span className="sn-ring">
                  <ProfilePhoto profile={profile} width={64} height={64} />
                </span>
                <span className="sn-story-name">{profile.name}</span>
              </a>
            </li>
          ))}
        </ul>
      </section>
      <ol className="sn-feed" aria-label={t('landers:social.feed')}>
        {posts.map((profile, index) => (
          <li key={profile.id} className="sn-post" data-testid="feed-post">
            <header>
              <ProfilePhoto profile={profile} width={40} height={40} className="sn-avatar" />
              <div>
                <strong>{age(profile)}</strong>
                <span>
                  {profile.region_label ? `${profile.region_label} · ` : ''}
                  {t('landers:social.hoursAgo', { count: index + 1 })}
                </span>
              </div>
            </header>
            <ProfilePhoto profile={profile} size="main" hero={index === 0} width={360} height={360} />
            <div className="sn-post-body">
              <p className="sn-meta">
                <span aria-hidden="true">♥</span>{' '}
                {t('landers:social.likes', { count: 12 + ((profile.id * 17) % 80) })}
              </p>
              <p>{profile.about ?? t('landers:social.posted', { name: profile.name })}</p>
              <a href="#signup" className="sn-reply">
                {t('landers:social.reply', { name: profile.name })}
              </a>
            </div>
          </li>
        ))}
      </ol>
      <Signup view={view} heading={t('landers:social.join')} />
    </>
  );
}

function LanderVideo({
  video,
  fallback,
  label,
}: {
  video: { src: string; poster: string } | null;
  fallback: Profile | undefined;
  label: string;
}) {
  if (!video) {
    return fallback ? (
      <ProfilePhoto profile={fallback} size="main" hero width={360} height={480} className="vd-media" />
    ) : null;
  }
  return (
    <>
      <link rel="preload" as="image" href={video.poster} fetchPriority="high" />
      <video
        className="vd-media"
        src={video.src}
        poster={video.poster}
        width={360}
        height={480}
        autoPlay
        muted
        loop
        playsInline
        preload="auto"
        aria-label={label}
        data-testid="lander-video"
      />
    </>
  );
}

/** transitionsvideolanding: a full-bleed cross-fading video of faces under the headline. */
function TransitionsVideo({ view }: DesignProps) {
  const { t } = useTranslation();
  const age = useAgeLabel();
  return (
    <>
      <section className="tv-hero">
        <LanderVideo
          video={view.media?.transitions ?? null}
          fallback={view.profiles[0]}
          label={t('landers:videoLabel', { site: view.site })}
        />
        <div className="tv-overlay">
          <h1>{t('landers:transitions.title')}</h1>
          <p>{t('landers:transitions.lead')}</p>
          <Cta>{t('landers:cta')}</Cta>
        </div>
      </section>
      <section className="tv-new">
        <h2>{t('landers:transitions.new')}</h2>
        <ul>
          {view.profiles.slice(1, 7).map((profile) => (
            <li key={profile.id}>
              <ProfilePhoto profile={profile} width={96} height={96} />
              <span>{age(profile)}</span>
            </li>
          ))}
        </ul>
      </section>
      <Signup view={view} />
    </>
  );
}

/** video: a phone-style live video card, then three reasons and the signup. */
function VideoLander({ view }: DesignProps) {
  const { t } = useTranslation();
  return (
    <>
      <section className="vl-stage">
        <div className="vl-phone">
          <LanderVideo
            video={view.media?.video ?? null}
            fallback={view.profiles[0]}
            label={t('landers:videoLabel', { site: view.site })}
          />
          <span className="vl-live">
            <span className="at-dot" aria-hidden="true" />
            {t('landers:video.live')}
          </span>
        </div>
        <h1>{t('landers:video.title')}</h1>
        <p>{t('landers:video.lead')}</p>
      </section>
      <ol className="vl-points">
        <li>{t('landers:icons.search')}</li>
        <li>{t('landers:icons.like')}</li>
        <li>{t('landers:icons.chat')}</li>
      </ol>
      <Signup view={view} />
    </>
  );
}

export const landerDesigns: Record<
  LanderName,
  { tone: 'light' | 'dark'; Design: (props: DesignProps) => ReactNode }
> = {
  tinderswipe: { tone: 'light', Design: TinderSwipe },
  alonetonight: { tone: 'dark', Design: AloneTonight },
  collagelanding: { tone: 'light', Design: Collage },
  gallery: { tone: 'light', Design: Gallery },
  iconslanding: { tone: 'light', Design: Icons },
  maplanding: { tone: 'light', Design: MapLander },
  socialnetwork: { tone: 'light', Design: Social },
  transitionsvideolanding: { tone: 'dark', Design: TransitionsVideo },
  video: { tone: 'dark', Design: VideoLander },
};
