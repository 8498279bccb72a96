import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../tests/setup/profile-fixture.ts';
import { renderPageToString, testUser } from '../../tests/setup/render-shell.tsx';
import Lander from './lander.tsx';
import MemberLanding from './member-landing.tsx';

const landerData = {
  name: 'gallery' as const,
  title: 'Gallery | Amora',
  description: 'Dating',
  profiles: [profileFixture(1), profileFixture(2)],
  map: null,
  media: null,
  suggestion: 'Robin',
  nonce: 'n',
};

const notice = 'data-testid="site-entry-warning"';

/** A lander's HTML as the server sends it (landers are never rendered in the browser). */
function lander(country: string, user: ReturnType<typeof testUser> | null, skipped = false) {
  return renderPageToString(
    '/landers/gallery',
    { id: 'landers-name-slug', path: 'landers/:name', Component: Lander as never, loader: () => landerData },
    { user, siteEntrySkipped: skipped, settings: { geoip_country: country } },
  );
}

describe('the 18+ notice in the lander layout (spec §2: NL and DE only, skipped once closed)', () => {
  it('is shown to a logged-in member from NL or DE, as to a visitor', async () => {
    for (const country of ['NL', 'DE']) {
      for (const user of [null, testUser()]) {
        const html = await lander(country, user);
        expect(html, `${country} ${user ? 'member' : 'visitor'}`).toContain(notice);
      }
    }
  });

  it('is shown on the member landing pages to a logged-in member from DE too', async () => {
    const html = await renderPageToString(
      '/members/5/landing',
      {
        id: 'members-id-landing',
        path: 'members/:id/landing',
        Component: MemberLanding as never,
        loader: () => ({ profile: profileFixture(5, { name: 'Lena' }), suggestion: 'Robin', nonce: 'n' }),
      },
      { user: testUser(), settings: { geoip_country: 'DE' } },
    );
    expect(html).toContain('Lena');
    expect(html).toContain(notice);
  });

  it('is not shown to others, nor once closed', async () => {
    const gb = await lander('GB', testUser());
    expect(gb).toContain('lander--gallery');
    expect(gb).not.toContain(notice);
    expect(await lander('NL', testUser(), true)).not.toContain(notice);
  });
});
