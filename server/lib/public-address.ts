import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The one check of every address the server sends a request to on somebody else's say (an ad
 * network's postback URL, a browser's push endpoint): only public unicast addresses. Loopback,
 * private, link-local, shared (CGNAT), unspecified, multicast, documentation and reserved ranges are
 * refused, in IPv4 and in IPv6, and so is an IPv4 address written as IPv6 (mapped `::ffff:a.b.c.d`,
 * compatible `::a.b.c.d`, translated, NAT64 and 6to4) whenever the IPv4 address is not public.
 */

function blockList(type: 'ipv4' | 'ipv6', ranges: readonly (readonly [string, number])[]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

/** IPv4 special-purpose ranges (RFC 6890 and its updates), multicast and the reserved 240/4. */
const notPublicIPv4 = blockList('ipv4', [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
]);

/** Public IPv6 unicast is within 2000::/3; these parts of it are not (IETF protocols, Teredo, documentation). */
const globalUnicast = blockList('ipv6', [['2000::', 3]]);
const notPublicIPv6 = blockList('ipv6', [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
]);

/** The eight 16-bit groups of an IPv6 address (one isIP accepted, without a zone). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const tail: number[] = [];
  const dotted = /:(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push(a * 256 + b, c * 256 + d);
    text = text.slice(0, dotted.index + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const hex = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const [head = '', rest] = text.split('::');
  const before = hex(head);
  const after = rest === undefined ? [] : hex(rest);
  const zeros = new Array<number>(8 - before.length - after.length - tail.length).fill(0);
  return [...before, ...zeros, ...after, ...tail];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** The IPv4 address an IPv6 form carries, '' for the deprecated compatible form ::/96, or null. */
function embeddedIPv4(groups: number[]): string | null {
  const at = (index: number) => groups[index] ?? 0;
  const zero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const last32 = ipv4Of(at(6), at(7));
  // IPv4-compatible (::a.b.c.d, and :: and ::1 with it): deprecated, never a destination.
  if (zero(0, 6)) return '';
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-translated ::ffff:0:a.b.c.d.
  if (zero(0, 5) && at(5) === 0xffff) return last32;
  if (zero(0, 4) && at(4) === 0xffff && at(5) === 0) return last32;
  // NAT64 (64:ff9b::/96) and 6to4 (2002:aabb:ccdd::/48).
  if (at(0) === 0x64 && at(1) === 0xff9b && zero(2, 6)) return last32;
  if (at(0) === 0x2002) return ipv4Of(at(1), at(2));
  return null;
}

/** Whether an IP address (v4 or v6, as text) is a public unicast address a request may go to. */
export function isPublicAddress(address: string): boolean {
  // A zone (fe80::1%eth0) only belongs to link-local addresses.
  if (address.includes('%')) return false;
  const version = isIP(address);
  if (version === 4) return !notPublicIPv4.check(address, 'ipv4');
  if (version !== 6) return false;
  const groups = ipv6Groups(address);
  const embedded = embeddedIPv4(groups);
  if (embedded !== null) return embedded !== '' && !notPublicIPv4.check(embedded, 'ipv4');
  const normalized = groups.map((group) => group.toString(16)).join(':');
  return globalUnicast.check(normalized, 'ipv6') && !notPublicIPv6.check(normalized, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** A URL's host without the brackets of an IPv6 literal, lower-case. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * Why a request may not go to this URL, or null: http(s) only (`https` only when asked), no
 * credentials, and unless private addresses are allowed (tests, development) no IP literal that is
 * not public and no name of a local network (a single label, .localhost, .local, .internal). A
 * public name may still resolve to a private address: publicOnlyLookup checks that on connecting.
 */
export function outgoingUrlProblem(
  target: string | URL,
  options: { allowPrivate: boolean; httpsOnly?: boolean },
): 'invalid_url' | 'private_address' | null {
  if (typeof target === 'string' && !URL.canParse(target)) return 'invalid_url';
  const url = typeof target === 'string' ? new URL(target) : target;
  const protocols = options.httpsOnly ? ['https:'] : ['https:', 'http:'];
  if (!protocols.includes(url.protocol)) return 'invalid_url';
  if (url.username || url.password) return 'invalid_url';
  if (options.allowPrivate) return null;
  const host = hostOf(url);
  if (isIP(host) || host.includes('%')) return isPublicAddress(host) ? null : 'private_address';
  if (!host.includes('.') || /(^|\.)(localhost|local|internal)\.?$/.test(host)) return 'private_address';
  return null;
}

/** An error for a request that was refused before it went out (its `code` is EPRIVATE). */
export function privateAddressError(message: string): Error {
  return Object.assign(new Error(message), { code: 'EPRIVATE' });
}

/**
 * A DNS lookup for outgoing sockets that refuses a name with any address that is not public:
 * checked on the addresses the socket connects to, so a name cannot point somewhere else later.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address))) {
      return callback(privateAddressError('the host resolves to a private address'), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
};
