import type { FastifyInstance, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiCaller } from '#app/lib/load-context.ts';
import { apiCallerFor, registerPages } from '#server/web/ssr.ts';
import { activeMember } from '../setup/members.ts';
import { injectCounted, installStatementCounter } from '../setup/statement-count.ts';
import { createTestApp, type TestApp } from '../setup/test-app.ts';

/**
 * A logged-in page without a browser build: the page route renders through `render`, which makes
 * the in-process API calls the real loaders make (root: settings, company, user, counts; /members:
 * search), with the same caller the React Router handler gets.
 */
let t: TestApp;
let loaders: (api: ApiCaller) => Promise<Record<string, unknown>>;

async function registerTestPages(app: FastifyInstance) {
  await registerPages(app, async (_webRequest, request: FastifyRequest) => {
    const data = await loaders(apiCallerFor(app, request));
    return new Response(JSON.stringify(data), { headers: { 'content-type': 'application/json' } });
  });
}

beforeAll(async () => {
  installStatementCounter();
  t = await createTestApp();
  await registerTestPages(t.app);
  await t.app.ready();
});
afterAll(() => t.close());

const sessionLookups = (statements: string[]) => statements.filter((sql) => /from "sessions"/.test(sql));

describe('a logged-in page', () => {
  it('looks its session up once for all its loaders, within 4 statements (the /members loaders)', async () => {
    const member = await activeMember(t.app);
    loaders = async (api) => {
      const [settings, company, user] = await Promise.all([
        api('/api/settings.php'),
        api('/api/companyinfo.php'),
        api<{ user: { id: number } | null }>('/api/user.php'),
      ]);
      const counts = await api('/api/counts.php');
      const search = await api('/api/search.php');
      return {
        statuses: [settings.status, company.status, user.status, counts.status, search.status],
        user: user.data.user,
      };
    };
    const { response, statements } = await injectCounted(t.app, {
      url: '/members',
      headers: { cookie: member.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      statuses: [200, 200, 200, 200, 200],
      user: { id: member.userId },
    });
    expect(sessionLookups(statements)).toHaveLength(1);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(4);
  });

  it('ends the loan at a call that may change the session: after logging out, the next call is logged out', async () => {
    const member = await activeMember(t.app);
    loaders = async (api) => {
      const before = await api<{ user: { id: number } | null }>('/api/user.php');
      const logout = await api('/api/logout.php', { method: 'POST', body: {} });
      const after = await api<{ user: { id: number } | null }>('/api/user.php');
      return { before: before.data.user?.id ?? null, logout: logout.status, after: after.data.user };
    };
    const { response, statements } = await injectCounted(t.app, {
      url: '/members',
      headers: { cookie: member.cookie },
    });
    expect(response.json()).toEqual({ before: member.userId, logout: 200, after: null });
    // The page's own lookup, and one more after the POST (which found no session any more).
    expect(sessionLookups(statements).length).toBeGreaterThanOrEqual(2);
  });

  it('never lends a session to a request from outside: a forged cookie is looked up and refused', async () => {
    loaders = async (api) => ({ user: (await api<{ user: unknown }>('/api/user.php')).data.user });
    const { response } = await injectCounted(t.app, {
      url: '/members',
      headers: { cookie: 'sid=forged-token' },
    });
    expect(response.json()).toEqual({ user: null });
  });
});
