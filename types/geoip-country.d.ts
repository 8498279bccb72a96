declare module 'geoip-country' {
  type Lookup = { country: string; name: string; continent: string } | null;
  const geoip: { lookup(ip: string): Lookup };
  export default geoip;
}
