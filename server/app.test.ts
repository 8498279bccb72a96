import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../tests/setup/test-app.ts';
import type { ZodApp } from './lib/zod-app.ts';

describe('error shapes of the contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const api = t.app.withTypeProvider() as unknown as ZodApp;
    api.post(
      '/api/test-echo.php',
      { schema: { body: z.object({ email: z.email(), age: z.number().int().min(18) }) } },
      async (request) => ({ echoed: request.body.email }),
    );
    api.get('/api/test-crash.php', async () => {
      throw new Error('secret internal detail');
    });
  });
  afterAll(() => t.close());

  it('answers malformed JSON with 400 invalid_json, never a 500', async () => {
    for (const url of ['/api/test-echo.php', '/api/user.php']) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"email": "a@b.c", ',
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json()).toHaveProperty('error');
    }
    const echo = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo.php',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(echo.statusCode).toBe(400);
    expect(echo.json()).toMatchObject({ error: 'invalid_json' });
  });

  it('answers invalid input with 422 validation_failed and the fields', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo.php',
      payload: { email: 'not-an-email', age: 12 },
    });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.error).toBe('validation_failed');
    expect(Object.keys(body.fields).sort()).toEqual(['age', 'email']);
    expect(body.message).toBe('Please check the highlighted fields.');
  });

  it('answers an unknown API path with a JSON 404 in the visitor language', async () => {
    const response = await t.app.inject({
      url: '/api/nothing-here.php',
      headers: { 'accept-language': 'nl-NL,nl;q=0.9' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({ error: 'not_found', message: 'Deze pagina bestaat niet' });
  });

  it('prefers the locale cookie, then Accept-Language, then the site language', async () => {
    const message = async (headers: Record<string, string>) =>
      (await t.app.inject({ url: '/api/nothing.php', headers })).json().message as string;
    const english = await message({});
    const german = await message({ cookie: 'locale=de', 'accept-language': 'fr' });
    const french = await message({ 'accept-language': 'fr-BE,fr;q=0.9,en;q=0.5' });
    const dutchSite = await message({ host: 'nl.localhost' });
    const norwegian = await message({ 'accept-language': 'nb-NO' });
    expect(english).toBe('This page could not be found');
    expect(german).not.toBe(english);
    expect(french).not.toBe(english);
    expect(new Set([english, german, french, dutchSite, norwegian]).size).toBe(5);
    expect(dutchSite).toBe(await message({ cookie: 'locale=nl' }));
  });

  it('answers an internal failure with 500 and no internal detail or stack', async () => {
    const response = await t.app.inject({ url: '/api/test-crash.php' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'internal_error', message: 'An error has occurred' });
    expect(response.body).not.toContain('secret internal detail');
    expect(response.body).not.toContain('at ');
  });

  it('refuses a cookie-carrying change from a foreign origin or as a plain form (CSRF)', async () => {
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo.php',
      headers: { cookie: 'sid=x', origin: 'https://evil.example', host: 'localhost' },
      payload: { email: 'a@b.cd', age: 30 },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error).toBe('csrf_failed');

    const form = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo.php',
      headers: { cookie: 'sid=x', 'content-type': 'text/plain' },
      payload: 'email=a@b.cd',
    });
    expect(form.statusCode).toBe(403);

    const sameOrigin = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo.php',
      headers: { cookie: 'sid=x', origin: 'http://localhost:3000', host: 'localhost:3000' },
      payload: { email: 'a@b.cd', age: 30 },
    });
    expect(sameOrigin.statusCode).toBe(200);
  });
});

describe('system endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports health with the database in use', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, database: process.env.DATABASE_URL ? 'postgres' : 'pglite' });
  });

  it('publishes the OpenAPI document with the contract calls', async () => {
    const response = await t.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/settings.php', '/api/companyinfo.php']),
    );
    const ui = await t.app.inject({ url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });
});
