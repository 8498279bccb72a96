import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupMember } from '../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { loadConfig } from '../config.ts';
import { hstsHeader, permissionsPolicy, storageImageSources } from './security-headers.ts';

/** The CSP as a map of directive → sources. */
function csp(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  it('sends CSP, nosniff, referrer policy, no framing and a permissions policy on every answer', async () => {
    for (const url of ['/api/settings.php', '/api/no-such-call.php', '/api/health']) {
      const response = await t.app.inject({ url });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['permissions-policy']).toBe(permissionsPolicy);
      expect(response.headers['permissions-policy']).toContain('geolocation=(self)');
      expect(response.headers['permissions-policy']).toContain('camera=()');
      const policy = csp(response);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('script-src-attr')).toEqual(["'none'"]);
    }
  });

  it('allows only scripts of this origin and with the response nonce, new on every response', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const scripts = csp(await t.app.inject({ url: '/api/settings.php' })).get('script-src') ?? [];
      expect(scripts).not.toContain("'unsafe-inline'");
      expect(scripts).not.toContain("'unsafe-eval'");
      const nonce = scripts.find((source) => source.startsWith("'nonce-"));
      expect(scripts).toEqual(["'self'", nonce]);
      expect(nonce).toMatch(/^'nonce-[A-Za-z0-9+/]{22}==?'$/);
      nonces.add(nonce ?? '');
    }
    expect(nonces.size).toBe(3);
  });

  it("lets the live WebSocket connect to the page's own host", async () => {
    const response = await t.app.inject({ url: '/api/settings.php', headers: { host: 'nl.localhost:3000' } });
    expect(csp(response).get('connect-src')).toEqual([
      "'self'",
      'ws://nl.localhost:3000',
      'wss://nl.localhost:3000',
    ]);
  });

  it('sends HSTS only when the request came over HTTPS (here: from the trusted proxy)', async () => {
    const plain = await t.app.inject({ url: '/api/settings.php' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const secure = await t.app.inject({
      url: '/api/settings.php',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(secure.headers['strict-transport-security']).toMatch(/^max-age=\d{8}; includeSubDomains$/);
  });

  it("sends the build's scripts and style sheets nosniff and their resource policy only; other files there keep it all", async () => {
    for (const url of ['/assets/entry.client-D1x2.js', '/assets/members-Q9.css?v=1']) {
      const response = await t.app.inject({ url, headers: { 'x-forwarded-proto': 'https' } });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(response.headers['strict-transport-security']).toBe(hstsHeader);
      for (const name of [
        'content-security-policy',
        'permissions-policy',
        'x-frame-options',
        'referrer-policy',
      ])
        expect(response.headers[name]).toBeUndefined();
    }
    // An SVG opened on its own is a document: its scripts stay under the policy.
    const image = await t.app.inject({ url: '/assets/logo-Q9.svg' });
    expect(csp(image).get('script-src-attr')).toEqual(["'none'"]);
    expect(image.headers['x-frame-options']).toBe('DENY');
  });

  it('lets other origins (a CDN in front) load media but not the API', async () => {
    const api = await t.app.inject({ url: '/api/settings.php' });
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    const media = await t.app.inject({ url: '/media/public/nothing-here.webp' });
    expect(media.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it("allows images from the site's CDN prefix, and only for that site", async () => {
    const site = await t.app.deps.sites.resolve('nl.localhost');
    await t.app.deps.sites.update(site.id, { cdnPrefix: 'https://cdn.example.net/amora' });
    try {
      const own = csp(await t.app.inject({ url: '/api/settings.php', headers: { host: 'nl.localhost' } }));
      expect(own.get('img-src')).toContain('https://cdn.example.net');
      const other = csp(await t.app.inject({ url: '/api/settings.php', headers: { host: 'localhost' } }));
      expect(other.get('img-src')).not.toContain('https://cdn.example.net');
      // A prefix that would break the header is left out, never a 500.
      await t.app.deps.sites.update(site.id, { cdnPrefix: "https://x.example/a';script-src *" });
      const broken = await t.app.inject({ url: '/api/settings.php', headers: { host: 'nl.localhost' } });
      expect(broken.statusCode).toBe(200);
      expect(csp(broken).get('script-src')).toHaveLength(2);
    } finally {
      await t.app.deps.sites.update(site.id, { cdnPrefix: '' });
    }
  });

  it('allows images from the object storage when S3 is configured', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/x', S3_BUCKET: 'photos' };
    expect(storageImageSources(loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/x' }))).toEqual([]);
    expect(storageImageSources(loadConfig({ ...base, S3_REGION: 'eu-west-1' }))).toEqual([
      'https://photos.s3.eu-west-1.amazonaws.com',
      'https://s3.eu-west-1.amazonaws.com',
    ]);
    expect(
      storageImageSources(
        loadConfig({
          ...base,
          S3_ENDPOINT: 'http://127.0.0.1:9000',
          S3_PUBLIC_URL: 'https://cdn.example.com/photos',
        }),
      ),
    ).toEqual(['https://cdn.example.com', 'http://127.0.0.1:9000', 'http://*.127.0.0.1:9000']);
  });
});

describe('logout cannot be triggered by another site', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const loggedIn = async (cookie: string) =>
    (await t.app.inject({ url: '/api/user.php', headers: { cookie } })).json().user !== null;

  it.each([
    ['no proof of origin (an <img> in an old browser, a mail client)', {}],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sister subdomain)', { 'sec-fetch-site': 'same-site' }],
    [
      'Sec-Fetch-Site: cross-site with a forged same-site Referer',
      { 'sec-fetch-site': 'cross-site', referer: 'http://localhost/members' },
    ],
    ['a foreign Origin', { origin: 'https://evil.test' }],
    ['Origin: null', { origin: 'null', referer: 'http://localhost/members' }],
    ['a foreign Referer', { referer: 'https://evil.test/page' }],
  ])('GET /api/logout.php with %s answers 403 and keeps the session', async (_name, headers) => {
    const { cookie } = await signupMember(t.app);
    const response = await t.app.inject({
      url: '/api/logout.php',
      headers: { host: 'localhost', cookie, ...headers },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'csrf_failed' });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await loggedIn(cookie)).toBe(true);
  });

  it.each([
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
    ['Sec-Fetch-Site: none (typed by the member)', { 'sec-fetch-site': 'none' }],
    ['its own Origin', { origin: 'http://localhost' }],
    ['its own Referer', { referer: 'http://localhost/members' }],
  ])('GET /api/logout.php from the site itself (%s) logs out', async (_name, headers) => {
    const { cookie } = await signupMember(t.app);
    const response = await t.app.inject({
      url: '/api/logout.php',
      headers: { host: 'localhost', cookie, ...headers },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(await loggedIn(cookie)).toBe(false);
  });

  it('POST /api/logout.php logs out; from a foreign origin it is refused', async () => {
    const { cookie } = await signupMember(t.app);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/logout.php',
      headers: { host: 'localhost', cookie, origin: 'https://evil.test' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(await loggedIn(cookie)).toBe(true);
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/logout.php',
      headers: { host: 'localhost', cookie, origin: 'http://localhost' },
    });
    expect(own.json()).toEqual({ ok: true });
    expect(await loggedIn(cookie)).toBe(false);
  });
});
