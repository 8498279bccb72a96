import { useRouteLoaderData } from 'react-router';
import type { Catalog } from '#contract/i18n.ts';
import type { Locale } from '#contract/locales.ts';
import type { DiscountCode } from '#contract/payments.ts';
import type { CompanyInfo, Settings } from '#contract/sites.ts';
import type { User } from '#contract/users.ts';

/**
 * The data every screen shares, as the root loader (app/root.tsx) returns it. Spelled out here, not
 * inferred from the loader, so the components that read it need not import the root module, which
 * imports them.
 */
export type RootData = {
  locale: Locale;
  /** The catalogs' file, fetched by the browser (entry.client). */
  catalogs: string;
  /** The page titles of the common catalog, for the meta functions, which cannot read a context. */
  titles: Catalog;
  settings: Settings;
  company: CompanyInfo | null;
  /** The member, or null for a visitor. */
  user: User | null;
  /** Badge counts as the server knew them when it rendered the page. */
  counts: { unreadMessages: number; newLikes: number };
  hasTrafficSource: boolean;
  /**
   * The welcome time bonus while it runs for this member (spec §4: logged in, never paid, first 4
   * hours), else null; `renderedAt` is the loader's clock, from which its countdown's first render counts.
   */
  welcome: DiscountCode | null;
  renderedAt: number;
  siteEntrySkipped: boolean;
  /** The site's own origin, for canonical and hreflang links. */
  origin: string;
  pathname: string;
};

/** The data every screen shares: site settings, company, the member (or null), language. */
export function useRootData(): RootData {
  const data = useOptionalRootData();
  if (!data) throw new Error('useRootData outside the root route');
  return data;
}

export function useOptionalRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>('root');
}
