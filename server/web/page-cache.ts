import type { FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import type { EventBus } from '#server/lib/event-bus.ts';
import { onPublicPagesChanged, publicPagesChangedChannel } from '#server/lib/public-pages.ts';
import { TtlCache } from '#server/lib/ttl-cache.ts';
import { sessionCookieName } from '#server/modules/accounts/sessions.ts';
import { staffCookieName } from '#server/modules/staff/staff.sessions.ts';

/** A finished page: its status, headers and the HTML cut where the response's CSP nonce stood. */
type Entry = {
  status: number;
  headers: [string, string][];
  parts: string[];
  bytes: number;
};

/** Headers that belong to one answer, never to a kept copy. */
const ownHeaders = new Set(['date', 'set-cookie', 'content-length', 'transfer-encoding', 'connection']);

/**
 * Pages as a visitor without a session sees them, kept finished for a few seconds per process
 * (decision 021): the public pages are the same for every such visitor of a site and
 * language and country, and rendering one costs ~15 ms of the main thread. A page is kept only when nobody is
 * logged in (no member or staff session cookie), the address has no query (ad parameters, ?lang=)
 * and the answer is a 200 HTML page that sets no cookie. The key holds the whole Cookie header, so
 * whatever a page reads from a cookie (the 18+ notice, the tracking cookie) can only ever be served
 * back to the same cookies. Each copy gets the new response's CSP nonce.
 */
export class PageCache {
  private readonly entries: TtlCache<Entry>;

  constructor(
    readonly ttlMs: number,
    maxBytes = 32 * 1024 * 1024,
    now: () => number = Date.now,
  ) {
    this.entries = new TtlCache(
      ttlMs,
      { maxBytes, maxEntryBytes: maxBytes / 16, sizeOf: (entry) => entry.bytes },
      now,
    );
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The key of a request whose page may be kept, or undefined. */
  keyOf(request: FastifyRequest): string | undefined {
    if (this.ttlMs <= 0 || request.method !== 'GET' || request.url.includes('?')) return undefined;
    if (request.cookies[sessionCookieName] || request.cookies[staffCookieName]) return undefined;
    const cookie = request.headers.cookie ?? '';
    if (cookie.length > 1024) return undefined;
    // Crawlers get the whole page at once (entry.server.tsx): the same HTML, kept apart all the same.
    const agent = isbot(request.headers['user-agent']) ? 'bot' : 'browser';
    // The visitor's country (from the address) chooses the profiles and prices a public page shows.
    return `${request.site.id}\n${request.locale}\n${request.clientCountry ?? ''}\n${agent}\n${request.url}\n${cookie}`;
  }

  /** The kept page with `nonce` in its CSP places, or undefined. */
  get(key: string, nonce: string): { status: number; headers: [string, string][]; body: string } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    return { status: entry.status, headers: entry.headers, body: entry.parts.join(nonce) };
  }

  /** Whether an answer may be kept (a 200 HTML page that sets no cookie). */
  storable(response: Response): boolean {
    return (
      response.status === 200 &&
      (response.headers.get('content-type') ?? '').startsWith('text/html') &&
      response.headers.getSetCookie().length === 0
    );
  }

  set(key: string, response: Response, body: string, nonce: string): void {
    const bytes = body.length * 2 + key.length * 2;
    const headers: [string, string][] = [];
    for (const [name, value] of response.headers) if (!ownHeaders.has(name)) headers.push([name, value]);
    this.entries.set(key, {
      status: response.status,
      headers,
      parts: nonce ? body.split(nonce) : [body],
      bytes,
    });
  }

  /** Every kept page goes (what visitors see may have changed). */
  clear(): void {
    this.entries.clear();
  }

  /** Clears on every instance's announcement (server/lib/public-pages.ts); returns the unsubscribe. */
  listen(bus: EventBus): () => void {
    const stopLocal = onPublicPagesChanged(() => this.clear());
    const stopBus = bus.subscribe(publicPagesChangedChannel, () => this.clear());
    return () => {
      stopLocal();
      stopBus();
    };
  }

  /** Bytes held (UTF-16). */
  get size(): number {
    return this.entries.size;
  }
}
