import type { Profile } from '#contract/profiles.ts';

/** A member as the API shows one, for component and loader tests: numbered, with what a test changes. */
export function profileFixture(id: number, overrides: Partial<Profile> = {}): Profile {
  return {
    id,
    name: `Member${id}`,
    age: 30,
    gender: 'female',
    seeking: 'male',
    sexuality: 'hetero',
    country: 'NL',
    countryregion: 'NH',
    region_label: 'North Holland',
    status: 'active',
    fictional: true,
    main_image: null,
    body_type: null,
    hair: null,
    eye_colour: null,
    relationship_status: null,
    tattoos: null,
    interests: [],
    about: null,
    last_active: '2026-01-01T00:00:00.000Z',
    online: false,
    ...overrides,
  };
}
