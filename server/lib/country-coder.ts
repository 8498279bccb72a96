/**
 * country-coder with its borders (a large GeoJSON: ~100 ms to load) loads with its first use — the
 * map lander or a geocode — not with every start (issue 15).
 */
let coder: Promise<typeof import('@rapideditor/country-coder')> | undefined;

export function loadCountryCoder(): Promise<typeof import('@rapideditor/country-coder')> {
  coder ??= import('@rapideditor/country-coder');
  return coder;
}
