/** Characters a browser strips from or chokes on in a URL: C0 controls (tab, CR, LF, NUL…) and DEL. */
function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
const base = 'http://same-site.invalid';

/** Decodes percent-encoding until it stops changing (at most a few rounds); null when malformed. */
function fullyDecoded(value: string): string | null {
  let current = value;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      // expected: a malformed escape in a visitor's target: no target.
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** A path that a browser would resolve to another host: `//host`, `/\host`, `\\host`. */
function looksLikeOtherHost(path: string): boolean {
  const slashes = path.replace(/\\/g, '/');
  return !slashes.startsWith('/') || slashes.startsWith('//');
}

/**
 * Where a `?redirect=` or `next` value may send a visitor: only a path on this site, checked the
 * way a browser reads it (tabs and newlines, backslashes as slashes, percent-encoded forms, dot
 * segments), answered in its normalised form; anything else gives the fallback.
 */
export function safeRedirectPath(target: unknown, fallback: string): string {
  if (typeof target !== 'string' || target === '' || target.length > 2000) return fallback;
  const decoded = fullyDecoded(target);
  if (decoded === null) return fallback;
  for (const form of [target, decoded]) {
    if (hasControlCharacter(form) || looksLikeOtherHost(form)) return fallback;
  }
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    // expected: a target that is no URL goes to the fallback.
    return fallback;
  }
  if (url.origin !== base) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can leave `//host` after resolving ("/a/..//evil.test").
  const resolved = fullyDecoded(path);
  if (resolved === null || looksLikeOtherHost(path) || looksLikeOtherHost(resolved)) return fallback;
  return path;
}
