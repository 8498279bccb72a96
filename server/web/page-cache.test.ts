import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPagesChangedChannel } from '#server/lib/public-pages.ts';
import { activeMember } from '../../tests/setup/members.ts';
import { signedInStaff } from '../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { PageCache } from './page-cache.ts';
import { registerPages } from './ssr.ts';

/**
 * Resolves when a marker published now on the pages' channel has come back: on Redis the app's
 * announcements published before it (one connection, delivered in order) have all arrived by then.
 */
async function busCaughtUp(t: TestApp): Promise<void> {
  const marker = randomUUID();
  let stop = () => {};
  const back = new Promise<void>((resolve) => {
    stop = t.app.deps.bus.subscribe(publicPagesChangedChannel, (payload) => {
      if ((payload as { marker?: unknown } | null)?.marker === marker) resolve();
    });
  });
  try {
    await t.app.deps.bus.publish(publicPagesChangedChannel, { marker });
    await back;
  } finally {
    stop();
  }
}

/**
 * The page route with a render that counts its calls and writes the response's nonce into the page
 * (as React Router's scripts carry it), and may set a cookie or fail, as a real page might.
 */
describe('public page cache', () => {
  let t: TestApp;
  let renders = 0;
  let stopListening = () => {};
  beforeAll(async () => {
    t = await createTestApp();
    const pageCache = new PageCache(60_000);
    stopListening = pageCache.listen(t.app.deps.bus);
    await registerPages(
      t.app,
      async (webRequest, request: FastifyRequest) => {
        renders++;
        const url = new URL(webRequest.url);
        const html = `<html lang="${request.locale}"><script nonce="${request.cspNonce}">go()</script>${url.pathname} ${renders}</html>`;
        if (url.pathname === '/sets-cookie')
          return new Response(html, { headers: { 'content-type': 'text/html', 'set-cookie': 'a=1' } });
        if (url.pathname === '/missing')
          return new Response(html, { status: 404, headers: { 'content-type': 'text/html' } });
        return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
      },
      pageCache,
    );
    await t.app.ready();
  });
  afterAll(async () => {
    stopListening();
    await t.close();
  });

  const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
  const nonceOf = (response: { headers: Record<string, unknown> }) =>
    /'nonce-([^']+)'/.exec(String(response.headers['content-security-policy']))?.[1];

  it('renders a visitor page once, and gives every copy its own CSP nonce', async () => {
    const before = renders;
    const first = await page('/about-us');
    const second = await page('/about-us');
    expect(renders - before).toBe(1);
    expect(first.headers['x-page-cache']).toBe('miss');
    expect(second.headers['x-page-cache']).toBe('hit');
    expect(second.headers['content-type']).toBe('text/html; charset=utf-8');
    const [nonce1, nonce2] = [nonceOf(first), nonceOf(second)];
    expect(nonce1).toBeTruthy();
    expect(nonce2).not.toBe(nonce1);
    expect(second.body).toContain(`<script nonce="${nonce2}">`);
    expect(second.body).not.toContain(nonce1);
    expect(second.body.replace(nonce2 ?? '', 'N')).toBe(first.body.replace(nonce1 ?? '', 'N'));
  });

  it('keeps apart languages, countries, cookies and addresses', async () => {
    const before = renders;
    // A visitor from another country (8.8.8.8: US) may see other profiles and prices.
    await t.app.inject({ url: '/apart', remoteAddress: '8.8.8.8' });
    await t.app.inject({ url: '/apart', remoteAddress: '8.8.8.8' });
    expect(renders - before).toBe(1);
    await page('/apart', { 'accept-language': 'de' });
    await page('/apart', { 'accept-language': 'fr' });
    await page('/apart', { cookie: 'site_entry=1' });
    await page('/apart');
    expect(renders - before).toBe(5);
    expect((await page('/apart', { 'accept-language': 'fr' })).body).toContain('lang="fr"');
    expect(renders - before).toBe(5);
  });

  it('never keeps a page of a session, with a query, of another method, with a cookie set or not a 200', async () => {
    const member = await activeMember(t.app);
    const cases: [string, Record<string, string>][] = [
      ['/mine', { cookie: member.cookie }],
      ['/mine', { cookie: 'staff_sid=whatever' }],
      ['/query?network=ads', {}],
      ['/sets-cookie', {}],
      ['/missing', {}],
    ];
    for (const [url, headers] of cases) {
      const before = renders;
      await page(url, headers);
      const again = await page(url, headers);
      expect(renders - before, url).toBe(2);
      expect(again.headers['x-page-cache'], url).toBeUndefined();
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/headed' });
    expect(head.headers['x-page-cache']).toBeUndefined();
  });

  it('drops every kept page when a member profile turns public or a public one changes, and after a staff write', async () => {
    const member = await activeMember(t.app);
    const cached = async () => (await page('/home-like')).headers['x-page-cache'];
    await page('/home-like');
    expect(await cached()).toBe('hit');

    // A member whose profile is not public writes: visitors' pages stay.
    const edit = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: '/api/profile.php', headers: { cookie: member.cookie }, payload });
    expect((await edit({ about: 'Quiet evenings and long walks.' })).statusCode).toBe(200);
    expect(await cached()).toBe('hit');

    // Opting in to being shown to visitors: gone at once.
    expect((await edit({ public_profile: true })).statusCode).toBe(200);
    expect(await cached()).toBe('miss');
    // A public profile changes: gone again.
    expect((await edit({ about: 'Long walks and good coffee.' })).statusCode).toBe(200);
    expect(await cached()).toBe('miss');

    // The operators' chat work leaves them; a back-office write does not.
    const staff = await signedInStaff(t.app, 'admin');
    // On Redis the announcements above also come back here a moment later: let them land first.
    await busCaughtUp(t);
    await page('/home-like');
    const typing = await t.app.inject({
      method: 'POST',
      url: '/api/admin/typing.php',
      headers: { cookie: staff.cookie },
      payload: { conversation: 1 },
    });
    expect(typing.statusCode).toBeGreaterThanOrEqual(200);
    expect(await cached()).toBe('hit');
    const write = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/session.php',
      headers: { cookie: staff.cookie },
    });
    expect(write.statusCode).toBe(200);
    expect(await cached()).toBe('miss');
  });

  it('renders again once a copy is older than its time', () => {
    let now = 0;
    const cache = new PageCache(10_000, 1024 * 1024, () => now);
    const response = new Response('x', { headers: { 'content-type': 'text/html' } });
    cache.set('k', response, '<p nonce="OLD">OLD</p>', 'OLD');
    expect(cache.get('k', 'NEW')?.body).toBe('<p nonce="NEW">NEW</p>');
    now = 10_000;
    expect(cache.get('k', 'NEW')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
