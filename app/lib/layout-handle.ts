/**
 * A route opts out of the site's shell and global stylesheets with
 * `export const handle = { layout: 'bare' }` (landers bring their own small CSS). The root then
 * renders no shell stylesheet and the layout renders only the page.
 */
export type LayoutHandle = { layout?: 'bare' | 'default'; hydrate?: false };

export function isBareHandle(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && 'layout' in handle && handle.layout === 'bare';
}

export function isBareRoute(matches: ReadonlyArray<{ handle?: unknown }>): boolean {
  return matches.some((match) => isBareHandle(match.handle));
}

/**
 * A route with `handle.hydrate === false` is sent as plain HTML: no React Router scripts and no
 * hydration (the landers, whose few behaviours are small inline scripts; decision 017).
 */
export function isScriptlessRoute(matches: ReadonlyArray<{ handle?: unknown }>): boolean {
  return matches.some(
    (match) =>
      typeof match.handle === 'object' &&
      match.handle !== null &&
      'hydrate' in match.handle &&
      match.handle.hydrate === false,
  );
}
