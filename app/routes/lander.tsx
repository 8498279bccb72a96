import { data } from 'react-router';
import { landerDesigns } from '#app/components/landers/designs.tsx';
import { inlineCall, swipeIsland } from '#app/components/landers/islands.ts';
import { LanderFrame } from '#app/components/landers/lander-parts.tsx';
import { serverApi } from '#app/lib/api.ts';
import { landerSignupAction } from '#app/lib/lander-signup.server.ts';
import { nameSuggestion } from '#app/lib/name-suggestion.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { siteEntryWarningVisible } from '#app/lib/shell-rules.ts';
import landersCss from '#app/styles/landers.scss?url';
import { type LanderName, landerNames } from '#contract/landers.ts';
import type { Route } from './+types/lander';

/** No site shell, no shell stylesheet and no React on the client: landers are plain HTML (decision 017). */
export const handle = { layout: 'bare', hydrate: false };

export function links() {
  return [{ rel: 'stylesheet', href: landersCss }];
}

function landerOf(url: string, param: string | undefined): LanderName | undefined {
  const candidate = new URL(url).pathname.startsWith('/landers/tinderswipe') ? 'tinderswipe' : param;
  return landerNames.find((name) => name === candidate);
}

export function meta({ data: loaded }: Route.MetaArgs) {
  if (!loaded) return [];
  return [
    { title: loaded.title },
    { name: 'description', content: loaded.description },
    { name: 'robots', content: 'noindex' },
  ];
}

const titleKeys: Record<LanderName, string> = {
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

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const name = landerOf(request.url, params.name);
  if (!name) throw data(null, { status: 404 });
  const api = serverApi(context.api);
  const [profiles, settings, map, media] = await Promise.all([
    api('GET /api/landers/profiles.php', { query: { limit: 12 } }),
    api('GET /api/settings.php'),
    name === 'maplanding' ? api('GET /api/landers/map.php') : null,
    name === 'video' || name === 'transitionsvideolanding' ? api('GET /api/landers/media.php') : null,
  ]);
  // Without the site's settings there is no page to show (the API answers them for every known host).
  if (!settings.ok) throw data(null, { status: settings.status || 500 });
  const focus = map?.ok ? map.data.focus : null;
  // The map lander lists the singles of the region its heading names.
  const regional = focus
    ? await api('GET /api/landers/profiles.php', { query: { limit: 6, region: focus } })
    : null;
  const strings = context.resources.landers ?? {};
  const site = settings.data.name;
  const title = (strings[titleKeys[name]] ?? site).replace('{site}', site);
  return {
    name,
    title: `${title} | ${site}`,
    description: settings.data.description,
    profiles: [
      ...(regional?.ok ? regional.data.profiles : []),
      ...(profiles.ok ? profiles.data.profiles : []),
    ].filter((profile, index, all) => all.findIndex((other) => other.id === profile.id) === index),
    map: map?.ok ? map.data : null,
    media: media?.ok ? media.data : null,
    suggestion: nameSuggestion(),
    nonce: context.cspNonce,
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  if (!landerOf(request.url, params.name)) throw data(null, { status: 404 });
  return landerSignupAction(context.api, request, { next: '/signup-matches' });
}

/** The nine ad landing pages of spec §2: each its own design, fictional profiles, a two-step signup. */
export default function Lander({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, siteEntrySkipped } = useRootData();
  const { name, nonce } = loaderData;
  const { tone, Design } = landerDesigns[name];
  // Spec §2: in the lander layout the notice applies to NL and DE, to members as to visitors.
  const entryGate = siteEntryWarningVisible({
    enabled: settings.enable_site_entry_popup,
    skipped: siteEntrySkipped,
    routeExcluded: false,
    layout: 'lander',
    country: settings.geoip_country,
  });
  return (
    <LanderFrame
      name={name}
      tone={tone}
      nonce={nonce}
      entryGate={entryGate}
      {...(name === 'tinderswipe' ? { extraScript: inlineCall(swipeIsland) } : {})}
    >
      <Design
        view={{
          name,
          site: settings.name,
          profiles: loaderData.profiles,
          map: loaderData.map,
          media: loaderData.media,
          suggestion: loaderData.suggestion,
          result: actionData,
        }}
      />
    </LanderFrame>
  );
}
