// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreditsQuickPick } from '#app/components/chat/credits-quick-pick.tsx';
import { loadContract } from '#app/lib/api.ts';
import { renderShell, testUser, testWelcome } from '../../tests/setup/render-shell.tsx';
import { TopBar } from './top-bar.tsx';

beforeAll(() => loadContract());

const bundles = {
  bundles: [
    { id: 1, credits: 25, price: 1499, currency: 'EUR', badge: null },
    { id: 2, credits: 60, price: 2999, currency: 'EUR', badge: 'most_popular' },
  ],
  paymentmethods: ['ideal', 'card'],
  country: 'NL',
};

const newMember = () =>
  testUser({ paid_user: false, credits: 0, signup_date: new Date(Date.now() - 60_000).toISOString() });

/** What a screen reader reads of an element: its text without the parts hidden from it. */
function spoken(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The chips as read out, each "credits price". */
async function chips(): Promise<string[]> {
  return (await screen.findAllByTestId('quick-pick-bundle')).map(spoken);
}

describe('the welcome offer where the member spends', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const body = String(url).startsWith('/api/bundles.php') ? bundles : { user: newMember() };
        return new Response(JSON.stringify(body), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("prices the chat's top-up chips as the checkout charges them: after the welcome discount, the list price struck", async () => {
    renderShell(<CreditsQuickPick conversation={7} onLeave={() => undefined} />, {
      user: newMember(),
      welcome: testWelcome(3_600_000),
    });
    const [first, second] = await chips();
    // 14.99 − 25 % = 11.2425 → 11.24, rounded as the server rounds the order.
    expect(first).toMatch(/^25 credits €11\.24 Was €14\.99 −25%$/);
    expect(second).toMatch(/^60 credits €22\.49 Was €29\.99 −25%$/);
    // On screen: the price to pay, the list price struck through, the discount.
    const price = screen.getAllByTestId('price')[0];
    expect(price?.querySelector('.offer-price-now')?.textContent).toBe('€11.24');
    expect(price?.querySelector('del [aria-hidden="true"]')?.textContent).toBe('€14.99');
    expect(price?.querySelector('.offer-off')?.textContent).toBe('−25%');
    expect(screen.getByTestId('welcome-countdown').textContent).toMatch(
      /^Welcome offer: 25% off your first bundle, for (0:59:59|1:00:00) more$/,
    );
  });

  it('shows the list price alone without the offer, and once the member has paid', async () => {
    const none = renderShell(<CreditsQuickPick conversation={7} onLeave={() => undefined} />, {
      user: newMember(),
    });
    expect((await chips())[0]).toBe('25 credits €14.99');
    expect(screen.queryByTestId('welcome-countdown')).toBeNull();
    none.unmount();

    renderShell(<CreditsQuickPick conversation={7} onLeave={() => undefined} />, {
      user: testUser({ paid_user: true }),
      welcome: testWelcome(3_600_000),
    });
    expect((await chips())[0]).toBe('25 credits €14.99');
  });

  it('leaves a code out that the checkout would refuse for this bundle (another currency, a minimum order)', async () => {
    renderShell(<CreditsQuickPick conversation={7} onLeave={() => undefined} />, {
      user: newMember(),
      welcome: { ...testWelcome(3_600_000), minimum_order_value: 2000 },
    });
    expect(await chips()).toEqual(['25 credits €14.99', '60 credits €22.49 Was €29.99 −25%']);
  });

  it('counts the offer down in the top bar of a member who never paid, and ends it at zero', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    renderShell(<TopBar />, { user: newMember(), welcome: testWelcome(3_000) });
    for (let i = 0; i < 5; i++) await act(async () => Promise.resolve());
    const pill = screen.getByTestId('welcome-offer');
    expect(pill.getAttribute('href')).toBe('/credits');
    // Named by what it shows, explained by its description.
    expect(pill.textContent).toMatch(/^−25% 0:00:0[23]$/);
    expect(pill.getAttribute('aria-label')).toBeNull();
    expect(document.getElementById(pill.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(
      /^Welcome offer: 25% off your first bundle, for 0:00:0[23] more$/,
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    expect(screen.getByTestId('welcome-offer-time').textContent).toMatch(/^0:00:0[12]$/);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3_000);
    });
    expect(screen.queryByTestId('welcome-offer')).toBeNull();
    // Get Premium stays.
    expect(screen.getByRole('link', { name: 'Get Premium' })).toBeTruthy();
  });

  it('shows no countdown to a paid member, nor without a running offer', async () => {
    const paid = renderShell(<TopBar />, {
      user: testUser({ paid_user: true }),
      welcome: testWelcome(3_600_000),
    });
    await screen.findByTestId('balance');
    expect(screen.queryByTestId('welcome-offer')).toBeNull();
    paid.unmount();
    renderShell(<TopBar />, { user: newMember() });
    await screen.findByRole('link', { name: 'Get Premium' });
    expect(screen.queryByTestId('welcome-offer')).toBeNull();
  });

  it('steps aside on /credits while a code the member typed sets the prices there, and stays without one', async () => {
    const typedCode = { ...testWelcome(3_600_000), code: 'SPRING20', value_percentage: 20 };
    const onCredits = (code: ReturnType<typeof testWelcome> | null) =>
      renderShell(
        <>
          <TopBar />
          <Outlet />
        </>,
        {
          user: newMember(),
          welcome: testWelcome(3_600_000),
          routeId: 'credits',
          page: { Component: () => <p>bundles</p>, loader: () => ({ code }) },
        },
      );
    const typed = onCredits(typedCode);
    await screen.findByText('bundles');
    expect(screen.queryByTestId('welcome-offer')).toBeNull();
    typed.unmount();
    onCredits(null);
    await screen.findByText('bundles');
    expect(screen.getByTestId('welcome-offer')).toBeTruthy();
  });
});
