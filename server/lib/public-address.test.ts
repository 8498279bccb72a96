import { describe, expect, it } from 'vitest';
import { isPublicAddress, outgoingUrlProblem } from './public-address.ts';

/** Addresses no outgoing request may go to, in every way they can be written. */
const notPublic = [
  // IPv4: unspecified, private, loopback, link-local (cloud metadata), shared, special, multicast, reserved
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.1.1',
  '198.18.0.1',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  // IPv6: unspecified, loopback, unique local, link-local (with a zone too), site-local, multicast
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  'fc00::1',
  'fd12:3456:789a::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fec0::1',
  'ff02::1',
  '100::1',
  '2001:db8::1',
  '2001::1',
  '3fff::1',
  // IPv4-mapped forms of private IPv4 addresses (dotted and hex, as the URL parser writes them)
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::FFFF:7F00:0001',
  '0:0:0:0:0:ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:a9fe:a9fe',
  '::ffff:0.0.0.0',
  // IPv4-compatible forms (deprecated, never a destination)
  '::7f00:1',
  '::127.0.0.1',
  '::a9fe:a9fe',
  '::8.8.8.8',
  // IPv4-translated, NAT64 and 6to4 forms of private IPv4 addresses
  '::ffff:0:7f00:1',
  '::ffff:0:127.0.0.1',
  '64:ff9b::7f00:1',
  '64:ff9b::10.0.0.1',
  '2002:7f00:1::1',
  '2002:c0a8:101::1',
  // Not an address at all
  'localhost',
  '',
  '1.2.3',
];

const publicAddresses = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.215.14',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('the address check of every outgoing request', () => {
  it.each(notPublic)('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(publicAddresses)('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses URLs to those addresses and to local names, unless private addresses are allowed', () => {
    const refused = [
      'http://[::7f00:1]:8080/pb',
      'http://[::ffff:127.0.0.1]/pb',
      'http://[::ffff:7f00:1]/pb',
      'http://[::]/pb',
      'http://[fe80::1]/pb',
      'http://[64:ff9b::a9fe:a9fe]/latest/meta-data',
      'http://127.1/pb',
      'http://2130706433/pb',
      'http://0x7f000001/pb',
      'http://0177.0.0.1/pb',
      'http://169.254.169.254/latest/meta-data',
      'http://localhost:3000/pb',
      'http://api.localhost/pb',
      'http://printer.local/pb',
      'http://metadata.google.internal/pb',
      'http://intranet/pb',
    ];
    for (const url of refused) {
      expect(outgoingUrlProblem(url, { allowPrivate: false }), url).toBe('private_address');
      expect(outgoingUrlProblem(url, { allowPrivate: true }), url).toBeNull();
    }
    expect(outgoingUrlProblem('https://track.adnet.com/pb?c=1', { allowPrivate: false })).toBeNull();
    expect(outgoingUrlProblem('https://[2606:4700::1111]/pb', { allowPrivate: false })).toBeNull();
    expect(outgoingUrlProblem('http://adnet.com/pb', { allowPrivate: false, httpsOnly: true })).toBe(
      'invalid_url',
    );
    expect(outgoingUrlProblem('ftp://adnet.com/pb', { allowPrivate: true })).toBe('invalid_url');
    expect(outgoingUrlProblem('https://user:pw@adnet.com/pb', { allowPrivate: true })).toBe('invalid_url');
    expect(outgoingUrlProblem('not a url', { allowPrivate: true })).toBe('invalid_url');
  });
});
