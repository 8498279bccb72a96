import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeMember } from '../../../tests/setup/members.ts';
import { profilesNextTo } from '../../../tests/setup/search-profiles.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { searchCountCap } from './search.repository.ts';

describe('search count cap', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('counts up to 1,000 and says when there are more; pages cover the first 1,000', async () => {
    const viewer = await activeMember(t.app);
    await profilesNextTo(t.database.db, viewer, 1_050, 'cap');
    const answer = await t.app.inject({ url: '/api/search.php', headers: { cookie: viewer.cookie } });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ total: searchCountCap, total_capped: true, page: 1 });
    expect(body.pages).toBe(Math.ceil(searchCountCap / 24));

    // A narrow search is counted exactly and not capped.
    const narrow = await t.app.inject({
      url: '/api/search.php?gender=female',
      headers: { cookie: viewer.cookie },
    });
    expect(narrow.json().total).toBeLessThan(searchCountCap);
    expect(narrow.json().total_capped).toBe(false);
  });
});
