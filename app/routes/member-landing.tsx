import { data, useMatches } from 'react-router';
import {
  LanderFrame,
  LanderSignup,
  ProfilePhoto,
  useAgeLabel,
} from '#app/components/landers/lander-parts.tsx';
import { serverApi } from '#app/lib/api.ts';
import { landerSignupAction } from '#app/lib/lander-signup.server.ts';
import { nameSuggestion } from '#app/lib/name-suggestion.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { siteEntryWarningVisible } from '#app/lib/shell-rules.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import landersCss from '#app/styles/landers.scss?url';
import type { Route } from './+types/member-landing';

/** Plain HTML like the landers: no shell, no shell stylesheet, no client scripts. */
export const handle = { layout: 'bare', hydrate: false };

export function links() {
  return [{ rel: 'stylesheet', href: landersCss }];
}

export function meta({ data: loaded }: Route.MetaArgs) {
  return loaded ? [{ title: loaded.profile.name }, { name: 'robots', content: 'noindex' }] : [];
}

async function fictionalProfile(api: Route.LoaderArgs['context']['api'], id: string | undefined) {
  const answer = await serverApi(api)('GET /api/featured.php', { query: { profile: Number(id) || 0 } });
  const profile = answer.ok ? answer.data.profiles[0] : undefined;
  // Ads land on fictional profiles only: a member who made the profile public is still no ad.
  if (!profile?.fictional) throw data(null, { status: 404 });
  return profile;
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const profile = await fictionalProfile(context.api, params.id);
  return { profile, suggestion: nameSuggestion(), nonce: context.cspNonce };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const profile = await fictionalProfile(context.api, params.id);
  // After signing up the member lands in the chat with the first message sent (spec §2).
  return landerSignupAction(context.api, request, {
    next: `/members/${profile.id}`,
    contact: profile.id,
  });
}

type Variant = 'members-id-landing' | 'members-id-landing2' | 'members-id-landing3' | 'members-id-signup';

/**
 * /members/{id}/landing, landing2, landing3 and signup: an ad lands on one fictional profile, each
 * in its own design, and the visitor signs up with a first message to it.
 */
export default function MemberLanding({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const age = useAgeLabel();
  const { settings, siteEntrySkipped } = useRootData();
  const { profile, suggestion, nonce } = loaderData;
  const variant = variantOf(useMatches().at(-1)?.id);
  const signup = (
    <LanderSignup
      result={actionData}
      suggestion={suggestion}
      heading={t('landers:member.signupHeading', { name: profile.name })}
      lead={t('landers:member.lead', { name: profile.name, site: settings.name })}
      contact={{ name: profile.name }}
    />
  );
  // Spec §2: in the lander layout the notice applies to NL and DE, to members as to visitors.
  const entryGate = siteEntryWarningVisible({
    enabled: settings.enable_site_entry_popup,
    skipped: siteEntrySkipped,
    routeExcluded: false,
    layout: 'lander',
    country: settings.geoip_country,
  });
  const interests = profile.interests.slice(0, 5);
  const tags = interests.length > 0 && (
    <ul className="ml-tags" aria-label={t('landers:gallery.interests')}>
      {interests.map((interest) => (
        <li key={interest}>{t(`profile:interest.${interest}`)}</li>
      ))}
    </ul>
  );
  const body = (() => {
    switch (variant) {
      case 'members-id-landing2':
        return (
          <>
            <h1 className="ml-title">{t('landers:member.wantsToMeet', { name: profile.name })}</h1>
            <figure className="ml-polaroid">
              <ProfilePhoto profile={profile} size="main" hero width={360} height={360} alt={age(profile)} />
              <p>{age(profile)}</p>
            </figure>
            {tags}
            {signup}
          </>
        );
      case 'members-id-landing3':
        return (
          <>
            <div className="ml-card">
              <ProfilePhoto profile={profile} size="main" hero width={96} height={96} alt="" />
              <div>
                <p className="at-live">
                  <span className="at-dot" aria-hidden="true" />
                  {t('landers:online')}
                </p>
                <h1>{age(profile)}</h1>
                {profile.region_label && <p>{profile.region_label}</p>}
              </div>
            </div>
            {profile.about && (
              <blockquote className="ml-chat">
                <p>{profile.about}</p>
              </blockquote>
            )}
            {signup}
          </>
        );
      case 'members-id-signup':
        return (
          <>
            <div className="ml-card">
              <ProfilePhoto profile={profile} hero width={96} height={96} alt="" />
              <div>
                <h1>{t('landers:member.sendMessage', { name: profile.name })}</h1>
                <p>{age(profile)}</p>
              </div>
            </div>
            {signup}
          </>
        );
      default:
        return (
          <>
            <section className="ml-hero">
              <ProfilePhoto profile={profile} size="main" hero width={390} height={390} alt={age(profile)} />
              <div className="ml-name">
                <h1>{age(profile)}</h1>
                {profile.region_label && <p>{profile.region_label}</p>}
              </div>
            </section>
            <section className="ml-chat" aria-label={t('landers:member.chatPreview', { name: profile.name })}>
              <p>{t('landers:member.bubble1')}</p>
              <p>{t('landers:member.bubble2', { name: profile.name })}</p>
            </section>
            {tags}
            {signup}
          </>
        );
    }
  })();
  return (
    <LanderFrame
      name={variant}
      tone={variant === 'members-id-landing3' ? 'dark' : 'light'}
      nonce={nonce}
      entryGate={entryGate}
    >
      <div data-variant={variant}>{body}</div>
    </LanderFrame>
  );
}

function variantOf(routeId: string | undefined): Variant {
  const variants: Variant[] = ['members-id-landing2', 'members-id-landing3', 'members-id-signup'];
  return variants.find((variant) => variant === routeId) ?? 'members-id-landing';
}
