import { createRequire } from 'node:module';

/** The package's exports (module.exports, which an ES import sees as its default). */
type GeoipCountry = typeof import('geoip-country')['default'];

let geoip: GeoipCountry | undefined;

/**
 * geoip-country reads its whole database when it loads (~100 ms of a start), so it loads
 * with the first lookup, or once the server listens (warmGeoip), whichever comes first. It is a
 * CommonJS package, so the first lookup can load it on the spot.
 */
function loadGeoip(): GeoipCountry {
  if (!geoip) {
    // Typed by types/geoip-country.d.ts.
    const loaded: GeoipCountry = createRequire(import.meta.url)('geoip-country');
    geoip = loaded;
  }
  return geoip;
}

/** Loads the GeoIP database now (after the start, before the first visitor needs it). */
export function warmGeoip(): void {
  loadGeoip();
}

/** The visitor's country from an offline GeoIP database; null for private and unknown addresses. */
export function countryForIp(ip: string | undefined): string | null {
  if (!ip) return null;
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return loadGeoip().lookup(address)?.country ?? null;
}
