import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMediaSigner } from './media-signing.ts';

describe('media link signatures', () => {
  const secret = 'signing-test-secret';
  const expected = (key: string, expires: number) =>
    createHmac('sha256', secret).update(`media:${key}\n${expires}`).digest().toString('base64url');

  it('are the HMAC of key and expiry, the same within a step and new in the next', () => {
    let now = new Date('2026-11-25T12:01:00Z');
    const signer = createMediaSigner(secret, { now: () => now });
    const first = signer.sign('private/a.webp');
    expect(first.signature).toBe(expected('private/a.webp', first.expires));
    // Remembered within the step: the same answer, and still the right one.
    now = new Date('2026-11-25T12:05:00Z');
    expect(signer.sign('private/a.webp')).toEqual(first);
    expect(signer.sign('private/b.webp').signature).toBe(expected('private/b.webp', first.expires));
    // The next step: a later expiry and its own signature, never the remembered one.
    now = new Date('2026-11-25T12:10:01Z');
    const later = signer.sign('private/a.webp');
    expect(later.expires).toBe(first.expires + 600);
    expect(later.signature).toBe(expected('private/a.webp', later.expires));
    expect(signer.verify('private/a.webp', later.expires, later.signature)).toBe(true);
    expect(signer.verify('private/b.webp', later.expires, later.signature)).toBe(false);
  });
});
