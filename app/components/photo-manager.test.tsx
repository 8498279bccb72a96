// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadContract } from '#app/lib/api.ts';
import type { OwnProfile, Photo } from '#contract/profiles.ts';
import { profileFixture } from '../../tests/setup/profile-fixture.ts';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import { PhotoManager } from './photo-manager.tsx';

// The typed client loads the contract with its first call; loaded here, calls go out at once
// and the fake timers below count them as the page would.
beforeAll(() => loadContract());

const photo = (id: number): Photo => ({
  id,
  filename: `/media/${id}.webp`,
  thumb_filename: `/media/${id}-thumb.webp`,
  premium: id !== 1,
  locked: false,
  status: 'approved',
  hold_reason: null,
});

const profile: OwnProfile = {
  ...profileFixture(1, {
    name: 'Robin',
    age: 35,
    gender: 'male',
    seeking: 'female',
    fictional: false,
  }),
  birthdate: '1990-01-01',
  photos: [photo(1), photo(2), photo(3)],
  photo_limit: 25,
  public_profile: false,
  browse_invisibly: false,
};

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('PhotoManager: reorder by dragging', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async () => json({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    // happy-dom has no layout: three 100 px tiles in a row, 10 px apart, moved by their translate()
    // as a browser moves the dragged tile.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const index = [...(this.parentElement?.children ?? [])].indexOf(this);
      const shift = /translate\((-?[\d.]+)px, (-?[\d.]+)px\)/.exec(this.style.transform);
      return new DOMRect(index * 110 + Number(shift?.[1] ?? 0), Number(shift?.[2] ?? 0), 100, 100);
    });
    if (!HTMLElement.prototype.setPointerCapture) HTMLElement.prototype.setPointerCapture = () => undefined;
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  const orderSaved = () =>
    fetchMock.mock.calls
      .filter(([url, init]) => url === '/api/photo-order.php' && init?.method === 'PUT')
      .map(([, init]) => JSON.parse(String(init?.body)));
  const shown = () => screen.getAllByTestId('own-photo').map((tile) => Number(tile.dataset.photoId));

  const drag = async (
    from: Element,
    to: { x: number; y: number },
    pointerType: 'mouse' | 'touch',
  ): Promise<void> => {
    // One event at a time, each rendered, as a browser delivers them.
    const events = [
      () => fireEvent.pointerDown(from, { pointerId: 7, pointerType, button: 0, clientX: 50, clientY: 50 }),
      () =>
        fireEvent.pointerMove(from, { pointerId: 7, pointerType, clientX: (50 + to.x) / 2, clientY: to.y }),
      () => fireEvent.pointerMove(from, { pointerId: 7, pointerType, clientX: to.x, clientY: to.y }),
      () => fireEvent.pointerMove(from, { pointerId: 7, pointerType, clientX: to.x, clientY: to.y }),
      () => fireEvent.pointerUp(from, { pointerId: 7, pointerType, clientX: to.x, clientY: to.y }),
    ];
    for (const event of events) {
      await act(async () => {
        event();
      });
    }
  };

  it('moves the first photo to where the mouse lets go and saves the whole order', async () => {
    renderShell(<PhotoManager profile={profile} />, { user: testUser() });
    const tiles = await screen.findAllByTestId('own-photo');
    const first = tiles[0]?.querySelector('img');
    if (!first) throw new Error('no photo');
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    await drag(first, { x: 250, y: 50 }, 'mouse');
    expect(orderSaved()).toEqual([{ photos: [2, 3, 1] }]);
    // Shown in the new order at once, while it is being saved.
    expect(shown()).toEqual([2, 3, 1]);
    await act(async () => answer(json({ ok: true })));
  });

  it('on touch, drags from the grip only (a finger on the photo scrolls the page)', async () => {
    renderShell(<PhotoManager profile={profile} />, { user: testUser() });
    const tiles = await screen.findAllByTestId('own-photo');
    const third = tiles[2];
    const image = third?.querySelector('img');
    const grip = third?.querySelector('.photo-tile-grip');
    if (!image || !grip) throw new Error('no photo');
    await drag(image, { x: 20, y: 50 }, 'touch');
    expect(orderSaved()).toEqual([]);
    await drag(grip, { x: 20, y: 50 }, 'touch');
    expect(orderSaved()).toEqual([{ photos: [3, 1, 2] }]);
  });

  it('a tap (no movement) is not a drag', async () => {
    renderShell(<PhotoManager profile={profile} />, { user: testUser() });
    const tiles = await screen.findAllByTestId('own-photo');
    const first = tiles[0]?.querySelector('img');
    if (!first) throw new Error('no photo');
    await act(async () => {
      fireEvent.pointerDown(first, {
        pointerId: 3,
        pointerType: 'mouse',
        button: 0,
        clientX: 50,
        clientY: 50,
      });
      fireEvent.pointerUp(first, { pointerId: 3, pointerType: 'mouse', clientX: 52, clientY: 51 });
    });
    expect(orderSaved()).toEqual([]);
  });

  it("keeps reordering by keyboard in each photo's menu", async () => {
    renderShell(<PhotoManager profile={profile} />, { user: testUser() });
    const toggle = await screen.findByRole('button', { name: 'Options for photo 2 of 3' });
    await act(async () => {
      fireEvent.click(toggle);
    });
    const earlier = await screen.findByRole('button', { name: 'Move photo 2 earlier' });
    await act(async () => {
      fireEvent.click(earlier);
    });
    expect(orderSaved()).toEqual([{ photos: [2, 1, 3] }]);
  });
});

describe('PhotoManager: a tile stays uncluttered, the limit says what Premium gives', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ ok: true })),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows one menu button per photo and puts make-main, move and delete inside it', async () => {
    renderShell(<PhotoManager profile={profile} />, { user: testUser() });
    const tiles = await screen.findAllByTestId('own-photo');
    for (const tile of tiles) expect(tile.querySelectorAll('button')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /Delete photo|Make main photo|earlier|later/ })).toBeNull();
    expect(tiles[0]?.querySelector('[data-testid="main-photo-badge"]')?.textContent).toBe('Main photo');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Options for photo 3 of 3' }));
    });
    expect(
      (await screen.findAllByRole('button', { name: /Make main photo|Move photo 3|Delete photo/ })).map(
        (item) => item.textContent,
      ),
    ).toEqual(['Make main photo', 'Move photo 3 earlier', 'Delete photo']);
  });

  it('at the free limit shows "Premium: up to 25 photos" where the add tile was', async () => {
    renderShell(<PhotoManager profile={{ ...profile, photo_limit: 3 }} />, { user: testUser() });
    const limit = await screen.findByTestId('photo-limit-tile');
    expect(limit.textContent).toBe('Premium: up to 25 photos');
    expect(limit.querySelector('a')?.getAttribute('href')).toBe('/premium');
    expect(screen.queryByText('Add a photo')).toBeNull();
  });

  it('at the premium limit says it is the maximum, and below it offers to add', async () => {
    const many = Array.from({ length: 25 }, (_, index) => photo(index + 1));
    renderShell(<PhotoManager profile={{ ...profile, photos: many }} />, { user: testUser() });
    expect((await screen.findByTestId('photo-limit-tile')).textContent).toBe(
      'You have the maximum of 25 photos',
    );
    cleanup();
    renderShell(<PhotoManager profile={profile} />, { user: testUser() });
    expect(await screen.findByText('Add a photo')).toBeTruthy();
    expect(screen.queryByTestId('photo-limit-tile')).toBeNull();
  });
});
