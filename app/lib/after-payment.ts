import { safeRedirectPath } from './safe-redirect.ts';

/**
 * The way back after paying: a member who tops up from a chat returns to that chat.
 * The same-site path travels as `?return=` through /credits and the checkout; the checkout's action
 * keeps it in a short-lived cookie bound to the order, because the payment provider only knows the
 * return page (/transactions/<order>). Every hop re-checks the path with safeRedirectPath, so an
 * off-site value is dropped wherever it enters.
 */
const cookieName = 'after_payment';
const maxAgeSeconds = 2 * 3600;

/** A same-site path from a query or form value, or null (missing, off-site, malformed). */
export function returnPathOf(value: unknown): string | null {
  const path = safeRedirectPath(value, '');
  return path === '' ? null : path;
}

/** The `?return=` of a request URL, checked. */
export function returnPathOfRequest(request: Request): string | null {
  return returnPathOf(new URL(request.url).searchParams.get('return'));
}

/** `path` with `?return=` added when there is a way back to carry. */
export function withReturn(path: string, back: string | null): string {
  return back ? `${path}?${new URLSearchParams({ return: back })}` : path;
}

/** The Set-Cookie value that remembers the way back for this order. */
export function afterPaymentCookie(order: number, back: string, secure: boolean): string {
  const value = encodeURIComponent(`${order}:${back}`);
  return `${cookieName}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The way back remembered for this order (the payment's return page), or null. */
export function afterPaymentPath(request: Request, order: number): string | null {
  const header = request.headers.get('Cookie') ?? '';
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== cookieName) continue;
    let value: string;
    try {
      value = decodeURIComponent(rest.join('='));
    } catch {
      // expected: a cookie value that is not URI-encoded was not written here: no way back.
      return null;
    }
    const colon = value.indexOf(':');
    if (colon < 0 || value.slice(0, colon) !== String(order)) return null;
    return returnPathOf(value.slice(colon + 1));
  }
  return null;
}
