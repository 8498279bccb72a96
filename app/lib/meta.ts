import type { MetaDescriptor } from 'react-router';
import type { Catalog, LocaleResources } from '#contract/i18n.ts';
import { locales } from '#contract/locales.ts';
import type { RootData } from './root-data.ts';

type MatchLike = { id: string; data?: unknown; loaderData?: unknown } | undefined;

export function rootDataOf(matches: readonly MatchLike[]): RootData | undefined {
  const root = matches.find((match) => match?.id === 'root');
  return (root?.loaderData ?? root?.data) as RootData | undefined;
}

function fill(message: string, params: Record<string, string>): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
}

/** The page titles of the common catalog (`page.*`, `title.*`, the language page's), for the root loader's data. */
const titlesOf = new WeakMap<LocaleResources, Catalog>();
export function pageTitlesOf(resources: LocaleResources): Catalog {
  let titles = titlesOf.get(resources);
  if (!titles) {
    const common = resources.common ?? {};
    titles = Object.fromEntries(
      Object.entries(common).filter(
        ([key]) => key.startsWith('page.') || key.startsWith('title.') || key === 'footer.language',
      ),
    );
    titlesOf.set(resources, titles);
  }
  return titles;
}

/**
 * `<title>` "Page | Site" and the description, translated from the root's page titles (meta functions
 * cannot use hooks). Public pages also name their language alternates (`?lang=`).
 */
export function pageMeta(
  matches: readonly MatchLike[],
  pageKey: string,
  options: { public?: boolean } = {},
): MetaDescriptor[] {
  const root = rootDataOf(matches);
  if (!root) return [];
  const page = root.titles[pageKey] ?? pageKey;
  const title = fill(root.titles['title.withSite'] ?? '{page} | {site}', { page, site: root.settings.name });
  const descriptors: MetaDescriptor[] = [
    { title },
    { name: 'description', content: root.settings.description },
  ];
  if (options.public) descriptors.push(...languageAlternates(root));
  else descriptors.push({ name: 'robots', content: 'noindex' });
  return descriptors;
}

/** The canonical URL of this page in this language, and the same page in every other language. */
export function languageAlternates(root: Pick<RootData, 'origin' | 'pathname' | 'locale'>): MetaDescriptor[] {
  const base = `${root.origin}${root.pathname}`;
  return [
    { tagName: 'link', rel: 'canonical', href: `${base}?lang=${root.locale}` },
    ...locales.map((locale) => ({
      tagName: 'link',
      rel: 'alternate',
      hrefLang: locale,
      href: `${base}?lang=${locale}`,
    })),
    { tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: base },
  ];
}
