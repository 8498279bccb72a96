import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '#contract/generated/api.d.ts';
import { activateMember, goodPassword, uniqueEmail } from '../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';

/** An outside client: the generated types (npm run api:types) with openapi-fetch against the listening app. */
describe('the typed API client', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    baseUrl = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => t.close());

  it('signs up, logs in, reads user.php and searches with typed requests and answers', async () => {
    const anonymous = createClient<paths>({ baseUrl });
    const nobody = await anonymous.GET('/api/user.php');
    expect(nobody.response.status).toBe(200);
    expect(nobody.data?.user).toBeNull();
    expect(nobody.response.headers.get('x-request-id')).toBeTruthy();

    const email = uniqueEmail('client');
    const signup = await anonymous.POST('/api/signup.php', {
      body: { email, name: 'Client', password: goodPassword, date_of_birth: '1990-01-02' },
    });
    expect(signup.response.status).toBe(201);
    const userId = signup.data!.user.id;
    await activateMember(t.app, userId);

    const refused = await anonymous.POST('/api/user.php', { body: { email, password: 'wrong-Password-1' } });
    expect(refused.response.status).toBe(401);
    expect(refused.error?.error).toBe('login_failed');

    const login = await anonymous.POST('/api/user.php', { body: { email, password: goodPassword } });
    expect(login.response.status).toBe(200);
    const sid = login.response.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('sid='))!
      .split(';')[0]!;

    const member = createClient<paths>({ baseUrl, headers: { cookie: sid } });
    const me = await member.GET('/api/user.php');
    expect(me.data?.user?.id).toBe(userId);

    const search = await member.GET('/api/search.php', { params: { query: { min_age: 18, max_age: 99 } } });
    expect(search.response.status).toBe(200);
    expect(search.data!.profiles.length).toBeGreaterThan(0);
    expect(typeof search.data!.total).toBe('number');

    const invalid = await member.GET('/api/search.php', { params: { query: { min_age: 5 } } });
    expect(invalid.response.status).toBe(422);
    expect(invalid.error?.error).toBe('validation_failed');
  });
});
