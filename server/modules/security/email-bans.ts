import { createHmac } from 'node:crypto';

/**
 * The form of an address a ban compares: trimmed and lowercased; for Gmail (gmail.com and
 * googlemail.com, one mailbox) the dots of the local part and anything after a `+` are dropped, as
 * Gmail delivers `j.doe+x@gmail.com` to `jdoe@gmail.com`. Other providers' plus addressing varies
 * (and some allow dots that matter), so they are only trimmed and lowercased.
 */
export function normalizeEmail(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (domain === 'gmail.com' || domain === 'googlemail.com') {
    return `${local.split('+')[0]!.replaceAll('.', '')}@gmail.com`;
  }
  return address;
}

/** The keyed hash a ban stores: HMAC-SHA-256 with the server's ban secret, never the address itself. */
export function emailBanHash(secret: string, email: string): string {
  return createHmac('sha256', secret).update(normalizeEmail(email)).digest('base64url');
}
