import { Component, type ReactNode, useContext, useEffect, useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
} from 'react-router';
import { ErrorScreen } from '#app/components/error-screen.tsx';
import { ProgressBar } from '#app/components/progress-bar.tsx';
import { Shell } from '#app/layouts/default-layout.tsx';
import { afterPaintLoaderScript } from '#app/lib/after-paint.ts';
import { serverApi } from '#app/lib/api.ts';
import { brandVariables } from '#app/lib/brand.ts';
import { parseCookies } from '#app/lib/cookies.ts';
import { CspNonceContext, zodJitlessScript } from '#app/lib/csp-nonce.ts';
import { i18nFor, usePageCatalogs } from '#app/lib/i18n.ts';
import { isBareRoute, isScriptlessRoute } from '#app/lib/layout-handle.ts';
import { languageAlternates, pageTitlesOf } from '#app/lib/meta.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { type RootData, useOptionalRootData } from '#app/lib/root-data.ts';
import { isChunkLoadError, shouldReloadForChunk, siteEntrySkipCookie } from '#app/lib/shell-rules.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { welcomeCanRun } from '#app/lib/welcome.server.ts';
import { LiveStateProvider } from '#app/state/live-state.tsx';
// The shell's stylesheets as URLs, not side-effect imports: the root decides per page which are
// render-blocking (public.css ≤ 15 KB gzip), which load late (members.css for visitors) and which a
// bare page (a lander) skips altogether.
import membersCss from '#app/styles/members.scss?url';
import publicCss from '#app/styles/public.scss?url';
import { defaultLocale } from '#contract/locales.ts';
import type { Route } from './+types/root';

export const trackingCookie = 'tracking';
/** The landing URL's parameters that mark ad traffic (kept by the server in the tracking cookie). */
const trackingParams = ['network', 'ref', 'sub1', 'sub2', 'sub3'];

export async function loader({ context, request }: Route.LoaderArgs): Promise<RootData> {
  const api = serverApi(context.api);
  const [settings, company, me] = await Promise.all([
    api('GET /api/settings.php'),
    api('GET /api/companyinfo.php'),
    api('GET /api/user.php'),
  ]);
  if (!settings.ok) throw new Response(null, { status: settings.status || 500 });
  const cookies = parseCookies(request.headers.get('cookie'));
  const user = me.ok ? me.data.user : null;
  // Badge counts in one call: the chats and likes lists load only on the pages that show them.
  // The welcome offer is asked for only while it can run: members past their first hours (most)
  // and paid members cost no call.
  const renderedAt = Date.now();
  const [counts, welcome] = await Promise.all([
    user ? api('GET /api/counts.php') : null,
    user && welcomeCanRun(user, renderedAt)
      ? api('GET /api/discountcode.php', { query: { welcome: 'true' } })
      : null,
  ]);
  const url = new URL(request.url);
  return {
    locale: context.locale,
    // The catalogs' file, fetched by the browser (entry.client); only the page titles travel here,
    // for the meta functions, which cannot read a context.
    catalogs: context.catalogsUrl,
    titles: pageTitlesOf(context.resources),
    settings: settings.data,
    company: company.ok ? company.data : null,
    user,
    counts: {
      unreadMessages: counts?.ok ? counts.data.unread_messages : 0,
      newLikes: counts?.ok ? counts.data.new_likes : 0,
    },
    // A failing welcome call is ignored (spec §8): the pages work without the offer.
    welcome: welcome?.ok && !welcome.data.expired ? welcome.data : null,
    renderedAt,
    hasTrafficSource:
      Boolean(user?.trafficsource) ||
      Boolean(cookies[trackingCookie]) ||
      trackingParams.some((name) => new URL(request.url).searchParams.get(name)),
    siteEntrySkipped: cookies[siteEntrySkipCookie] === '1',
    // Canonical and hreflang links name the site's own origin, never the Host a visitor sent.
    origin: context.origin,
    pathname: url.pathname,
  };
}

export function meta({ data, error }: Route.MetaArgs) {
  // An error page (404 included) names itself in ErrorScreen: one <title> only.
  if (!data || error) return [];
  return [
    { title: data.settings.index_title || data.settings.name },
    { name: 'description', content: data.settings.description },
    ...languageAlternates(data),
  ];
}

export function links() {
  return [
    { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
    { rel: 'manifest', href: '/manifest.webmanifest' },
    { rel: 'apple-touch-icon', href: '/icons/icon-192.png' },
  ];
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useOptionalRootData();
  const locale = data?.locale ?? defaultLocale;
  const catalogs = usePageCatalogs(data?.catalogs, locale);
  const i18n = useMemo(() => i18nFor(catalogs.locale, catalogs.resources), [catalogs]);
  const matches = useMatches();
  const error = useRouteError();
  // An error page always gets the shell, even when the route that failed was a bare one.
  const bare = !error && isBareRoute(matches);
  const scriptless = !error && isScriptlessRoute(matches);
  const member = Boolean(data?.user);
  const nonce = useContext(CspNonceContext);
  const brand = brandVariables(data?.settings.theme_color);
  const brandCss = `html:root{${Object.entries(brand)
    .map(([name, value]) => `${name}:${value}`)
    .join(';')}}`;
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content={data?.settings.theme_color ?? '#c2185b'} />
        <Meta />
        {/* Scripts carry the CSP nonce (entry.server); styles need none under our CSP, and an empty
            one keeps the hydrated markup equal, since browsers hide nonce attributes from the DOM. */}
        {/* A precedence makes React write the stylesheets first in <head>, before the scripts'
            modulepreload links: the browser asks for what blocks the first paint first. */}
        {!bare && <link rel="stylesheet" href={publicCss} precedence="shell" />}
        {!bare && member && <link rel="stylesheet" href={membersCss} precedence="shell" />}
        <Links nonce="" />
        {!scriptless && catalogs.url && (
          // entry.client waits for this file before hydrating; preloaded, it comes with the scripts.
          <link rel="preload" as="fetch" crossOrigin="anonymous" href={catalogs.url} data-catalogs="" />
        )}
        <style>{brandCss}</style>
        {!scriptless && (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours, carrying the CSP nonce
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: zodJitlessScript }} />
        )}
        {!scriptless && import.meta.env.PROD && (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours, carrying the CSP nonce
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: afterPaintLoaderScript }} />
        )}
      </head>
      <body className={bare ? undefined : 'd-flex flex-column min-vh-100'}>
        <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
        {!scriptless && <ScrollRestoration />}
        {!scriptless && <Scripts />}
        {/* Visitors: the members' components load after the page has painted (not render-blocking).
            Members get it in <head> too (above), and this one stays for them: had it unmounted when
            a visitor became a member without a reload (signup), React would have taken it for the
            head's stylesheet and the page would have lost it. The browser fetches it once. */}
        {!bare && <link rel="stylesheet" href={membersCss} />}
      </body>
    </html>
  );
}

/** POST /api/page-hidden.php by beacon when the page is hidden; ?lb turns on bounce logging (spec §7, §9). */
function usePageHiddenBeacon() {
  const location = useLocation();
  const bounceLogging = new URLSearchParams(location.search).has('lb');
  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState !== 'hidden') return;
      navigator.sendBeacon(`/api/page-hidden.php${bounceLogging ? '?lb=1' : ''}`);
    };
    document.addEventListener('visibilitychange', onHidden);
    return () => document.removeEventListener('visibilitychange', onHidden);
  }, [bounceLogging]);
}

const chunkReloadKey = 'chunk-reload-at';

/** A missing chunk (a deploy replaced the assets) reloads the page once, at most once per 60 s. */
function reloadForMissingChunk(): boolean {
  try {
    const last = Number(window.sessionStorage.getItem(chunkReloadKey)) || null;
    if (!shouldReloadForChunk(last, Date.now())) return false;
    window.sessionStorage.setItem(chunkReloadKey, String(Date.now()));
  } catch {
    // expected: no session storage: no reload, which could not be limited to once.
    return false;
  }
  window.location.reload();
  return true;
}

export default function App({ loaderData }: Route.ComponentProps) {
  usePageHiddenBeacon();
  useEffect(() => {
    // Lets browser tests (and monitoring) tell when the page has become interactive.
    document.documentElement.dataset.hydrated = 'true';
    // The service worker shows push messages and makes the site installable.
    if ('serviceWorker' in navigator)
      void navigator.serviceWorker
        .register('/sw.js')
        .catch((error: unknown) => reportCaught('registering the service worker', error));
  }, []);
  useEffect(() => {
    const onPreloadError = (event: Event) => {
      if (reloadForMissingChunk()) event.preventDefault();
    };
    window.addEventListener('vite:preloadError', onPreloadError);
    return () => window.removeEventListener('vite:preloadError', onPreloadError);
  }, []);
  return (
    <LiveStateProvider initialUser={loaderData.user} initialCounts={loaderData.counts}>
      <ProgressBar />
      <Outlet />
    </LiveStateProvider>
  );
}

/** If the error page itself fails, this last line still offers the way home (spec §8). */
class ErrorPageGuard extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function ErrorPageFallback() {
  const { t } = useTranslation();
  return (
    <main className="container py-5 text-center" id="main">
      <h1 className="h4">
        {t('error.fallback', { defaultValue: 'An error occurred while showing the error page' })}
      </h1>
      <a href="/" className="btn btn-primary">
        {t('error.goHome', { defaultValue: 'Go back to home' })}
      </a>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  useEffect(() => {
    if (isChunkLoadError(error)) reloadForMissingChunk();
  }, [error]);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    isRouteErrorResponse(error) && typeof error.data === 'string' && error.data ? error.data : undefined;
  const data = useOptionalRootData();
  const screen = <ErrorScreen status={status} {...(message ? { message } : {})} />;
  return (
    <ErrorPageGuard fallback={<ErrorPageFallback />}>
      {data ? (
        // Outside the default layout (chat, landers) the error page still gets the whole shell.
        <LiveStateProvider initialUser={data.user} initialCounts={data.counts}>
          <Shell modals={false}>{screen}</Shell>
        </LiveStateProvider>
      ) : (
        <main className="flex-grow-1" id="main">
          {screen}
        </main>
      )}
    </ErrorPageGuard>
  );
}
