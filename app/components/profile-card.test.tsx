// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '#contract/profiles.ts';
import { profileFixture } from '../../tests/setup/profile-fixture.ts';
import { renderShell } from '../../tests/setup/render-shell.tsx';
import { ProfileGrid } from './profile-card.tsx';

afterEach(cleanup);

const profileNumbered = (id: number): Profile =>
  profileFixture(id, {
    name: `Member ${id}`,
    fictional: false,
    main_image: {
      filename: `/media/${id}.webp`,
      thumb_filename: `/media/${id}-thumb.webp`,
      match: `/media/${id}.webp`,
    },
  });

describe('a grid of members', () => {
  it('loads the first row of photos at once with high priority and the rest lazily (largest paint)', async () => {
    const { container } = renderShell(<ProfileGrid profiles={[1, 2, 3, 4, 5, 6].map(profileNumbered)} />);
    await screen.findByText('Member 6, 30');
    const photos = [...container.querySelectorAll('img')];
    expect(photos.map((photo) => photo.getAttribute('loading'))).toEqual([
      'eager',
      'eager',
      'eager',
      'eager',
      'lazy',
      'lazy',
    ]);
    expect(photos.map((photo) => photo.getAttribute('fetchpriority'))).toEqual([
      'high',
      'high',
      'high',
      'high',
      'auto',
      'auto',
    ]);
  });

  it("names each card's link by the name and age it shows, so the visible text is its name", async () => {
    renderShell(<ProfileGrid profiles={[profileNumbered(7)]} />);
    const link = await screen.findByRole('link', { name: 'Member 7, 30' });
    expect(link.getAttribute('aria-label')).toBeNull();
    expect(link.getAttribute('href')).toBe('/members/7');
  });
  it('shows a member without a photo by their initial on a colour of their own, not a blank tile', async () => {
    const withoutPhoto = (id: number, name: string): Profile => ({
      ...profileFixture(id, { name, fictional: false }),
      main_image: null,
    });
    renderShell(<ProfileGrid profiles={[withoutPhoto(9, 'élodie'), withoutPhoto(10, 'Bert')]} />);
    await screen.findByText('Bert, 30');
    const tiles = screen.getAllByTestId('profile-card-initial');
    expect(tiles.map((tile) => tile.textContent)).toEqual(['É', 'B']);
    // Neighbours differ in colour.
    expect(tiles[0]?.className).not.toBe(tiles[1]?.className);
  });
});
