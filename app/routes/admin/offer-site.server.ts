import type { staffApi } from '#app/lib/staff-api.server.ts';

export type OfferSite = { id: number; name: string };

/** The list's site filter: every offer, only those for all sites, or one site's own. */
export type OfferSiteFilter = 'any' | 'shared' | number;

/** The sites an offer can belong to, and the `?site=` filter of the list (decision 049). */
export async function offerSites(
  api: ReturnType<typeof staffApi>,
  request: Request,
): Promise<{ sites: OfferSite[]; siteFilter: OfferSiteFilter }> {
  const answer = await api('GET /api/admin/sites.php');
  if (!answer.ok) throw new Response(null, { status: answer.status });
  const raw = new URL(request.url).searchParams.get('site') ?? '';
  const id = Number(raw);
  const siteFilter: OfferSiteFilter =
    raw === 'shared' ? 'shared' : Number.isInteger(id) && id > 0 ? id : 'any';
  return { sites: answer.data.sites.map((site) => ({ id: site.id, name: site.name })), siteFilter };
}

/** The items the filter keeps: for all sites (no site), one site's, or all of them. */
export function bySite<Item extends { site: OfferSite | null }>(
  items: Item[],
  filter: OfferSiteFilter,
): Item[] {
  if (filter === 'any') return items;
  if (filter === 'shared') return items.filter((item) => item.site === null);
  return items.filter((item) => item.site?.id === filter);
}

/** The form's `site`: empty for all sites (null), else the site's id; undefined when absent. */
export function siteOfForm(form: FormData): number | null | undefined {
  const value = form.get('site');
  if (typeof value !== 'string') return undefined;
  return value === '' ? null : Number(value);
}
