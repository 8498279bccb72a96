import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import {
  createRoutesStub,
  createStaticHandler,
  createStaticRouter,
  Outlet,
  StaticRouterProvider,
  UNSAFE_withComponentProps,
} from 'react-router';
import { createI18n } from '../../app/lib/i18n.ts';
import { pageTitlesOf } from '../../app/lib/meta.ts';
import type { RootData } from '../../app/lib/root-data.ts';
import { LiveStateProvider } from '../../app/state/live-state.tsx';
import type { LocaleResources } from '../../contract/i18n.ts';
import type { DiscountCode } from '../../contract/payments.ts';
import type { CompanyInfo, Settings } from '../../contract/sites.ts';
import type { User } from '../../contract/users.ts';

/** A route module's default export, as React Router hands it its loader's data. */
type PageComponent = Parameters<typeof UNSAFE_withComponentProps>[0];

/** The English catalogs, read from the project folder (the browser-like test environment has no file URLs). */
function englishCatalogs(): LocaleResources {
  const dir = path.resolve(process.cwd(), 'locales', 'en');
  return Object.fromEntries(
    readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file.slice(0, -5), JSON.parse(readFileSync(path.join(dir, file), 'utf8'))]),
  );
}

export const testSettings = {
  domain: 'localhost',
  name: 'Amora',
  index_title: 'Amora',
  description: 'Dating',
  countries: ['NL', 'DE', 'GB'],
  domain_language: 'en',
  timezone: 'Europe/Amsterdam',
  geoip_country: 'GB',
  geoip_selected_country: 'GB',
  visible_profile_fields: [],
  visible_profile_notes: [],
  search_fields: [],
  cdn_prefix: '',
  message_credits: 1,
  photo_credits: 2,
  gift_credits: 3,
  signup_credits: 10,
  message_length: 1000,
  free_conversations: 2,
  free_messages: 3,
  minimum_message_costs: {},
  min_age: 18,
  support_email: 'help@amora.test',
  support_phone: '+31 20-123 45 67',
  enable_site_entry_popup: true,
  us_footer: false,
  push_public_key: 'key',
  fictional_warning: '',
  fictional_singular: '',
  fictional_plural: '',
  refund_days: 14,
  signups: 'all',
  logged_out_search: false,
  logged_out_search_trafficsource: false,
  member_resell: false,
  niche: 1,
  company_id: 1,
  theme_color: '#c2185b',
} satisfies Settings;

export function testUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    email: 'robin@example.com',
    status: 'active',
    credits: 25,
    paid_user: true,
    trafficsource: null,
    signup_date: '2026-01-01T00:00:00.000Z',
    fictional_icon: true,
    language: 'en',
    notifications_disabled: [],
    profile: { id: 1, name: 'Robin', country: 'NL', status: 'active', main_image: null, complete: true },
    ...overrides,
  };
}

type ShellOptions = {
  user?: User | null;
  settings?: Partial<Settings>;
  unreadMessages?: number;
  newLikes?: number;
  siteEntrySkipped?: boolean;
  hasTrafficSource?: boolean;
  company?: CompanyInfo | null;
  locale?: 'en';
  path?: string;
  routeId?: string;
  /** The URL the stub router starts at, e.g. "/?t=3". */
  url?: string;
  /** The welcome offer the root loader found running for the member. */
  welcome?: DiscountCode | null;
  /**
   * A route module's page below the root (named `routeId`, else "page"), with its loader: the
   * piece under test (`ui`) then holds an <Outlet /> where the page goes.
   */
  page?: { Component: PageComponent; loader?: () => unknown };
};

/** The root loader's data and the providers the root puts around every screen. */
function shellParts(ui: ReactNode, options: ShellOptions) {
  const resources = englishCatalogs();
  const rootData: RootData = {
    locale: 'en' as const,
    catalogs: '',
    titles: pageTitlesOf(resources),
    settings: { ...testSettings, ...options.settings },
    company: options.company ?? null,
    user: options.user ?? null,
    counts: { unreadMessages: options.unreadMessages ?? 0, newLikes: options.newLikes ?? 0 },
    hasTrafficSource: options.hasTrafficSource ?? false,
    welcome: options.welcome ?? null,
    renderedAt: Date.now(),
    siteEntrySkipped: options.siteEntrySkipped ?? false,
    origin: 'http://localhost',
    pathname: options.path ?? '/',
  };
  const content = () => (
    <I18nextProvider i18n={createI18n('en', resources)}>
      <LiveStateProvider
        initialUser={options.user ?? null}
        initialCounts={{ unreadMessages: options.unreadMessages ?? 0, newLikes: options.newLikes ?? 0 }}
      >
        {ui}
      </LiveStateProvider>
    </I18nextProvider>
  );
  return { rootData, content };
}

/** Renders a piece of the shell inside a root route with the data the root loader would give. */
export function renderShell(ui: ReactNode, options: ShellOptions = {}) {
  const { rootData, content } = shellParts(ui, options);
  // The piece under test sits in a child route, so rules that look at the route name (members area...) apply.
  const Stub = createRoutesStub([
    {
      id: 'root',
      path: '/',
      loader: () => rootData,
      HydrateFallback: () => null,
      Component: options.routeId && !options.page ? () => <Outlet /> : content,
      children: options.page
        ? [{ id: options.routeId ?? 'page', index: true, ...options.page }]
        : options.routeId
          ? [{ id: options.routeId, index: true, Component: content }]
          : [],
    },
  ]);
  return render(<Stub initialEntries={[options.url ?? '/']} />);
}

/** The welcome time bonus as GET /api/discountcode.php?welcome=true answers it, ending in `expiresInMs`. */
export function testWelcome(expiresInMs: number): DiscountCode {
  return {
    code: 'TIMEBONUS25',
    country: null,
    user_id: null,
    expires: new Date(Date.now() + expiresInMs).toISOString(),
    value_percentage: 25,
    currency: null,
    minimum_order_value: 0,
    status: 'active',
    validity: 'once_per_user',
    expired: false,
    paymentmethods: [],
  };
}

/**
 * A page as the server renders it (landers are server HTML only, never rendered in the browser):
 * the root's data and providers, the page's route module with its loader's data, at `url`.
 */
export async function renderPageToString(
  url: string,
  page: { id: string; path: string; Component: PageComponent; loader: () => unknown },
  options: ShellOptions = {},
): Promise<string> {
  const { rootData, content } = shellParts(<Outlet />, options);
  const handler = createStaticHandler([
    {
      id: 'root',
      path: '/',
      loader: () => rootData,
      Component: content,
      children: [
        {
          id: page.id,
          path: page.path,
          loader: page.loader,
          Component: UNSAFE_withComponentProps(page.Component),
        },
      ],
    },
  ]);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error(`the page answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} />);
}
