import { describe, expect, it } from 'vitest';
import type { ApiCaller, ApiResult } from '#app/lib/load-context.ts';
import type { Profile } from '#contract/profiles.ts';
import { profileFixture } from '../../tests/setup/profile-fixture.ts';
import { loader, shouldRevalidate } from './members.tsx';

const profile = (id: number): Profile => profileFixture(id);

/** Three keyset pages: each answer names the cursor of the next one. */
const pagesByCursor: Record<string, { ids: number[]; next: string | null }> = {
  '': { ids: [1, 2], next: 'c1' },
  c1: { ids: [3], next: 'c2' },
  c2: { ids: [4], next: null },
};

function context(calls: string[]) {
  const api: ApiCaller = async <T>(path: string) => {
    calls.push(path);
    const url = new URL(path, 'http://localhost');
    const page = pagesByCursor[url.searchParams.get('cursor') ?? ''];
    const answer: ApiResult<unknown> = page
      ? {
          status: 200,
          ok: true,
          data: {
            profiles: page.ids.map(profile),
            total: 4,
            page: Number(url.searchParams.get('page') ?? 1),
            pages: 2,
            next_cursor: page.next,
            similar: [],
            applied: { gender: 'female', country: null, mutual: true },
          },
          setCookies: [],
        }
      : { status: 422, ok: false, data: { error: 'validation_failed', message: '' }, setCookies: [] };
    return answer as ApiResult<T>;
  };
  return { api, locale: 'en' as const, resources: {}, catalogsUrl: '' };
}

type LoaderArgs = Parameters<typeof loader>[0];
const load = (url: string, calls: string[]) =>
  loader({
    request: new Request(`http://localhost${url}`),
    context: context(calls),
    params: {},
    unstable_pattern: '/members',
  } as unknown as LoaderArgs);

describe('search "load more" by keyset cursor', () => {
  it("renders the pages the URL counts, each read after the previous page's next_cursor", async () => {
    const calls: string[] = [];
    const data = await load('/members?gender=female&page=2', calls);
    expect(data.result?.profiles.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(data.result?.next_cursor).toBe('c2');
    expect(data.result?.page).toBe(2);
    const searches = calls.filter((call) => call.startsWith('/api/search.php'));
    expect(searches).toEqual([
      '/api/search.php?gender=female',
      '/api/search.php?gender=female&cursor=c1&page=2',
    ]);
  });

  it('stops at the last page (no next_cursor) even if the URL asks for more', async () => {
    const calls: string[] = [];
    const data = await load('/members?page=7', calls);
    expect(data.result?.profiles.map((p) => p.id)).toEqual([1, 2, 3, 4]);
    expect(data.result?.next_cursor).toBeNull();
    expect(calls.filter((call) => call.startsWith('/api/search.php'))).toHaveLength(3);
  });
});

describe('members shouldRevalidate', () => {
  const args = (from: string, to: string, formMethod?: 'POST') => ({
    currentUrl: new URL(from, 'http://localhost'),
    nextUrl: new URL(to, 'http://localhost'),
    formMethod,
    defaultShouldRevalidate: true,
  });
  const revalidates = (from: string, to: string, formMethod?: 'POST') =>
    shouldRevalidate(args(from, to, formMethod) as unknown as Parameters<typeof shouldRevalidate>[0]);

  it('skips the loader when only the page count grew (the page appended it already)', () => {
    expect(revalidates('/members?gender=female', '/members?gender=female&page=2')).toBe(false);
    expect(revalidates('/members?page=2&reactivated=1', '/members?page=3')).toBe(false);
  });
  it('loads again for other filters, fewer pages, another page or a form', () => {
    expect(revalidates('/members?gender=female', '/members?gender=male&page=2')).toBe(true);
    expect(revalidates('/members?page=3', '/members?page=2')).toBe(true);
    expect(revalidates('/members/5', '/members?page=2')).toBe(true);
    expect(revalidates('/members', '/members?page=2', 'POST')).toBe(true);
  });
});
