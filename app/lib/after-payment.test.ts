import { describe, expect, it } from 'vitest';
import { afterPaymentCookie, afterPaymentPath, returnPathOf, withReturn } from './after-payment.ts';

/** A request carrying the cookie a Set-Cookie value would set. */
function requestWith(setCookie: string): Request {
  const pair = setCookie.split(';')[0] ?? '';
  return new Request('http://localhost/transactions/7', { headers: { Cookie: `session=abc; ${pair}` } });
}

describe('the way back after paying', () => {
  it('keeps a same-site path', () => {
    expect(returnPathOf('/chats/12')).toBe('/chats/12');
    expect(withReturn('/credits/3', '/chats/12')).toBe('/credits/3?return=%2Fchats%2F12');
    expect(withReturn('/credits', null)).toBe('/credits');
  });

  it.each([
    'https://evil.test/chats/1',
    '//evil.test/chats/1',
    '/\\evil.test',
    '%2F%2Fevil.test',
    'javascript:alert(1)',
    '',
    null,
  ])('drops an off-site or malformed return %j', (value) => {
    expect(returnPathOf(value)).toBeNull();
  });

  it('remembers the path for its order only', () => {
    const cookie = afterPaymentCookie(7, '/chats/12', false);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(afterPaymentPath(requestWith(cookie), 7)).toBe('/chats/12');
    expect(afterPaymentPath(requestWith(cookie), 8)).toBeNull();
    expect(afterPaymentPath(new Request('http://localhost/transactions/7'), 7)).toBeNull();
  });

  it('never answers an off-site path from a cookie made by hand', () => {
    const forged = `after_payment=${encodeURIComponent('7://evil.test')}`;
    expect(afterPaymentPath(requestWith(forged), 7)).toBeNull();
    const absolute = `after_payment=${encodeURIComponent('7:https://evil.test/')}`;
    expect(afterPaymentPath(requestWith(absolute), 7)).toBeNull();
    expect(afterPaymentPath(requestWith('after_payment=%E0%A4%A'), 7)).toBeNull();
  });
});
