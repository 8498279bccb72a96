import geoip from 'geoip-country';

/** The visitor's country from an offline GeoIP database; null for private and unknown addresses. */
export function countryForIp(ip: string | undefined): string | null {
  if (!ip) return null;
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return geoip.lookup(address)?.country ?? null;
}
