import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from './clock.ts';

/** How long a link to a private photo works at least, and the step its expiry is rounded up to. */
export const mediaLinkLifetimeSeconds = 3600;
const expiryStepSeconds = 600;

export type MediaSignature = { expires: number; signature: string };

/**
 * Short-lived links to private media: an HMAC-SHA256 of the object's key and the expiry (Unix
 * seconds) under a server secret. The expiry is rounded up to a 10-minute step, so the same viewer
 * gets the same URL for a while and the browser's cache keeps working; a link lives 60 to 70 minutes.
 */
export type MediaSigner = {
  sign(key: string): MediaSignature;
  /** True only for an untampered signature of this key whose expiry has not passed. */
  verify(key: string, expires: number, signature: string): boolean;
  /** Seconds until an expiry, for the Cache-Control of what the link delivers. */
  secondsLeft(expires: number): number;
  /**
   * A stable name derived from a text under the secret (128 bits, base64url): the same text gives
   * the same name on every instance, and nobody without the secret can work it out.
   */
  derivedName(text: string): string;
};

export function createMediaSigner(secret: string, clock: Clock): MediaSigner {
  const mac = (key: string, expires: number) =>
    createHmac('sha256', secret).update(`media:${key}\n${expires}`).digest();
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  // Within one expiry step a key's signature never changes: a list of 300 conversations signs each
  // photo once per step instead of on every request (HMACs were a tenth of a chats.php's CPU).
  let signedFor = 0;
  const signed = new Map<string, string>();
  const maxRemembered = 100_000;
  return {
    sign(key) {
      const expires =
        Math.ceil((nowSeconds() + mediaLinkLifetimeSeconds) / expiryStepSeconds) * expiryStepSeconds;
      if (expires !== signedFor || signed.size >= maxRemembered) {
        signed.clear();
        signedFor = expires;
      }
      let signature = signed.get(key);
      if (signature === undefined) {
        signature = mac(key, expires).toString('base64url');
        signed.set(key, signature);
      }
      return { expires, signature };
    },
    verify(key, expires, signature) {
      if (!Number.isSafeInteger(expires) || expires <= nowSeconds()) return false;
      // Compared as text: decoding base64 would accept other spellings of the same bytes.
      const expected = Buffer.from(mac(key, expires).toString('base64url'));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    secondsLeft(expires) {
      return Math.max(0, expires - nowSeconds());
    },
    derivedName(text) {
      return createHmac('sha256', secret)
        .update(`name:${text}`)
        .digest()
        .subarray(0, 16)
        .toString('base64url');
    },
  };
}
