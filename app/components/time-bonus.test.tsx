// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadContract } from '#app/lib/api.ts';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import { formatCountdown, TimeBonusModal } from './time-bonus.tsx';

// The typed client loads the contract with its first call; loaded here, calls go out at once
// and the fake timers below count them as the page would.
beforeAll(() => loadContract());

const welcome = (expiresInMs: number) => ({
  code: 'TIMEBONUS25',
  country: null,
  user_id: null,
  expires: new Date(Date.now() + expiresInMs).toISOString(),
  value_percentage: 25,
  currency: null,
  minimum_order_value: 0,
  status: 'active',
  validity: 'once_per_user',
  expired: false,
  paymentmethods: [],
});

describe('time bonus', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let currentUser = testUser();
  const offerCalls = () =>
    fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/discountcode.php')).length;
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    window.localStorage.clear();
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    fetchMock = vi.fn(async (url: string) => {
      if (String(url).startsWith('/api/discountcode.php')) return json(welcome(3_600_000));
      if (String(url).startsWith('/api/user.php')) return json({ user: currentUser });
      if (String(url).startsWith('/api/likes.php'))
        return json({ profiles: [], liked_by: [], received: [], matches: [], new_matches: [] });
      return json({ chats: [], next: null });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const flush = async (ms = 0) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  const mount = async (options: NonNullable<Parameters<typeof renderShell>[1]>) => {
    currentUser = options.user ?? testUser();
    renderShell(<TimeBonusModal />, options);
    for (let i = 0; i < 5; i++) await act(async () => Promise.resolve());
  };

  it('counts down as hours:minutes:seconds', () => {
    expect(formatCountdown(14_400)).toBe('4:00:00');
    expect(formatCountdown(3599)).toBe('0:59:59');
    expect(formatCountdown(-3)).toBe('0:00:00');
  });

  it('appears 40 s after entering the members area for a member with 0 credits', async () => {
    await mount({ user: testUser({ credits: 0, paid_user: false }), routeId: 'members' });
    await flush(39_999);
    expect(offerCalls()).toBe(0);
    await flush(1);
    await flush();
    expect(offerCalls()).toBe(1);
    expect(screen.getByText('Your welcome offer')).toBeTruthy();
    expect(screen.getByText(/0:59:59|1:00:00/)).toBeTruthy();
    screen.getByRole('button', { name: 'Close' }).click();
    expect(window.localStorage.getItem('hide-time-bonus-modal')).toMatch(/^\d+$/);
  });

  it('stays away with credits, for paid members, outside the members area and once dismissed', async () => {
    for (const options of [
      { user: testUser({ credits: 5, paid_user: false }), routeId: 'members' },
      { user: testUser({ credits: 0, paid_user: true }), routeId: 'members' },
      { user: testUser({ credits: 0, paid_user: false }), routeId: 'profile' },
    ]) {
      await mount(options);
      await flush(60_000);
      cleanup();
    }
    window.localStorage.setItem('hide-time-bonus-modal', '1700000000');
    await mount({ user: testUser({ credits: 0, paid_user: false }), routeId: 'members' });
    await flush(60_000);
    expect(offerCalls()).toBe(0);
  });
});
