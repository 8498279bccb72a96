import { describe, expect, it } from 'vitest';
import type { ApiCaller, ApiResult } from '#app/lib/load-context.ts';
import type { User } from '#contract/users.ts';
import { action, loader } from './login.tsx';

/** A signed-in member as GET /api/user.php answers (the typed client checks the answer's shape). */
const member: User = {
  id: 1,
  email: 'a@example.com',
  status: 'active',
  credits: 0,
  paid_user: false,
  trafficsource: null,
  signup_date: '2026-01-01',
  fictional_icon: false,
  language: 'en',
  notifications_disabled: [],
  profile: { id: 1, name: 'Anna', country: 'NL', status: 'active', main_image: null, complete: true },
};

/** The loader's and action's context: the in-process API answers as for a logged-in member. */
function context(loggedIn: boolean) {
  const api: ApiCaller = async <T>() => {
    const answer: ApiResult<unknown> = {
      status: 200,
      ok: true,
      data: { user: loggedIn ? member : null },
      setCookies: ['sid=abc; Path=/; HttpOnly'],
    };
    return answer as ApiResult<T>;
  };
  return { api, locale: 'en' as const, resources: {}, catalogsUrl: '' };
}

type LoaderArgs = Parameters<typeof loader>[0];
type ActionArgs = Parameters<typeof action>[0];
const args = <T extends LoaderArgs | ActionArgs>(request: Request, loggedIn: boolean): T =>
  ({ request, context: context(loggedIn), params: {}, unstable_pattern: '/login' }) as unknown as T;

async function thrownLocation(run: () => Promise<unknown>): Promise<string | null> {
  try {
    const result = await run();
    return result instanceof Response ? result.headers.get('location') : null;
  } catch (error) {
    if (error instanceof Response) return error.headers.get('location');
    throw error;
  }
}

describe('login redirects stay on the site', () => {
  it.each([
    ['/%09/evil.test', '/members'],
    ['/\t/evil.test', '/members'],
    ['//evil.test', '/members'],
    ['/%5Cevil.test', '/members'],
    ['https://evil.test/', '/members'],
    ['/chats/5', '/chats/5'],
  ])('a logged-in visitor at /login?redirect=%j goes to %j', async (target, expected) => {
    const url = `http://localhost/login?redirect=${encodeURIComponent(target)}`;
    const location = await thrownLocation(() => loader(args<LoaderArgs>(new Request(url), true)));
    expect(location).toBe(expected);
  });

  it('the audit URL (/login?redirect=/%09/evil.test, as sent) goes to /members', async () => {
    const location = await thrownLocation(() =>
      loader(args<LoaderArgs>(new Request('http://localhost/login?redirect=/%09/evil.test'), true)),
    );
    expect(location).toBe('/members');
  });

  it.each([
    ['/\t/evil.test', '/members'],
    ['/%2F%2Fevil.test', '/members'],
    ['/likes', '/likes'],
  ])('logging in with redirect=%j goes to %j', async (target, expected) => {
    const body = new URLSearchParams({ email: 'a@example.com', password: 'x', redirect: target });
    const request = new Request('http://localhost/login', { method: 'POST', body });
    const location = await thrownLocation(() => action(args<ActionArgs>(request, false)));
    expect(location).toBe(expected);
  });
});
