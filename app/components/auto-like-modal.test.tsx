// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadContract } from '#app/lib/api.ts';
import { profileFixture } from '../../tests/setup/profile-fixture.ts';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import { AutoLikeModal } from './auto-like-modal.tsx';

// The typed client loads the contract with its first call; loaded here, calls go out at once
// and the fake timers below count them as the page would.
beforeAll(() => loadContract());

const liker = profileFixture(77, {
  name: 'Mila',
  age: 31,
  main_image: { filename: '/media/a.webp', thumb_filename: '/media/a-thumb.webp', match: '/media/a.webp' },
});

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('like modal with ?t=', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    fetchMock = vi.fn(async (url: string) =>
      String(url).startsWith('/api/auto-like.php')
        ? json({ profile: liker })
        : json({ unread_messages: 0, unread_conversations: 0, new_likes: 1, credits: 10 }),
    );
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const calls = (path: string) => fetchMock.mock.calls.filter(([url]) => String(url).startsWith(path)).length;

  it('asks for the liking profile after t seconds, shows it, then reloads the like badge (counts.php) 500 ms later', async () => {
    renderShell(<AutoLikeModal />, { user: testUser(), url: '/?t=3' });
    // Let the stub router load its data and mount the modal; its timer starts then.
    for (let i = 0; i < 5; i++) {
      await act(async () => {
        await Promise.resolve();
      });
    }
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2999);
    });
    expect(calls('/api/auto-like.php')).toBe(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(calls('/api/auto-like.php')).toBe(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText('Mila likes you!')).toBeTruthy();
    expect(calls('/api/counts.php')).toBe(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(499);
    });
    expect(calls('/api/counts.php')).toBe(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(calls('/api/counts.php')).toBe(1);
  });

  it('does nothing for a visitor or without t', async () => {
    renderShell(<AutoLikeModal />, { url: '/?t=1' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    cleanup();
    renderShell(<AutoLikeModal />, { user: testUser(), url: '/' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    expect(calls('/api/auto-like.php')).toBe(0);
  });
});
