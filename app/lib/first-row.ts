/**
 * The first four photos of a result grid (its first rows on a phone, most of its first row wider)
 * load at once with high priority: lazy loading held back the largest paint of the home page and
 * /members until layout (Lighthouse: "largest contentful paint image was lazily loaded"). The rest
 * stay lazy.
 */
export const firstRow = 4;

/** The loading attributes of the photo at `index` in a grid. */
export function photoLoading(index: number): { loading: 'eager' | 'lazy'; fetchPriority: 'high' | 'auto' } {
  return index < firstRow
    ? { loading: 'eager', fetchPriority: 'high' }
    : { loading: 'lazy', fetchPriority: 'auto' };
}
