import { describe, expect, it } from 'vitest';
import {
  backButtonVisible,
  badgeLabel,
  cleanPhone,
  creditsBadge,
  isChunkLoadError,
  pollIntervalMs,
  shouldReloadForChunk,
  siteEntryWarningVisible,
  titleWithCount,
} from './shell-rules.ts';

describe('unread badges', () => {
  it('shows the count up to 99 and 99+ above', () => {
    expect(badgeLabel(0)).toBeNull();
    expect(badgeLabel(1)).toBe('1');
    expect(badgeLabel(99)).toBe('99');
    expect(badgeLabel(100)).toBe('99+');
    expect(badgeLabel(5000)).toBe('99+');
  });
});

describe('credits badge', () => {
  it('appears at 10 credits or fewer, warning above 0 and danger at 0', () => {
    expect(creditsBadge(11)).toBeNull();
    expect(creditsBadge(10)).toEqual({ label: '10', variant: 'warning' });
    expect(creditsBadge(1)).toEqual({ label: '1', variant: 'warning' });
    expect(creditsBadge(0)).toEqual({ label: '0', variant: 'danger' });
  });
});

describe('page title prefix', () => {
  it('puts unread messages plus new likes in brackets before the title', () => {
    expect(titleWithCount('Amora', 0)).toBe('Amora');
    expect(titleWithCount('Amora', 3)).toBe('(3) Amora');
    expect(titleWithCount('(3) Amora', 4)).toBe('(4) Amora');
    expect(titleWithCount('(4) Amora', 0)).toBe('Amora');
    expect(titleWithCount('Amora', 150)).toBe('(99+) Amora');
  });
});

describe('site-entry warning', () => {
  const base = {
    enabled: true,
    skipped: false,
    routeExcluded: false,
    layout: 'default' as const,
    country: 'GB',
  };

  it('shows in the default layout to everyone', () => {
    expect(siteEntryWarningVisible(base)).toBe(true);
    expect(siteEntryWarningVisible({ ...base, country: null })).toBe(true);
  });

  it('applies only to NL and DE in the chat, lander and empty layouts', () => {
    for (const layout of ['chat', 'lander', 'empty'] as const) {
      expect(siteEntryWarningVisible({ ...base, layout, country: 'NL' })).toBe(true);
      expect(siteEntryWarningVisible({ ...base, layout, country: 'DE' })).toBe(true);
      expect(siteEntryWarningVisible({ ...base, layout, country: 'BE' })).toBe(false);
      expect(siteEntryWarningVisible({ ...base, layout, country: null })).toBe(false);
    }
  });

  it('is skipped once closed, on excluded routes and when the site turns it off', () => {
    expect(siteEntryWarningVisible({ ...base, skipped: true })).toBe(false);
    expect(siteEntryWarningVisible({ ...base, routeExcluded: true })).toBe(false);
    expect(siteEntryWarningVisible({ ...base, enabled: false })).toBe(false);
  });
});

describe('back button', () => {
  it('shows only in the installed app on member, likes, credits and payment-method screens', () => {
    expect(backButtonVisible(true, 'members-id')).toBe(true);
    expect(backButtonVisible(true, 'likes-m-id')).toBe(true);
    expect(backButtonVisible(true, 'credits')).toBe(true);
    expect(backButtonVisible(true, 'credits-id-paymentmethod')).toBe(true);
    expect(backButtonVisible(false, 'members-id')).toBe(false);
    expect(backButtonVisible(true, 'members')).toBe(false);
    expect(backButtonVisible(true, undefined)).toBe(false);
  });
});

describe('timing rules', () => {
  it('polls every 60 s, or 300 s with push', () => {
    expect(pollIntervalMs(false)).toBe(60_000);
    expect(pollIntervalMs(true)).toBe(300_000);
  });

  it('reloads for a missing chunk at most once per 60 s', () => {
    expect(shouldReloadForChunk(null, 1_000_000)).toBe(true);
    expect(shouldReloadForChunk(1_000_000, 1_059_999)).toBe(false);
    expect(shouldReloadForChunk(1_000_000, 1_060_000)).toBe(true);
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      true,
    );
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
  });
});

it('cleans the support phone of dashes and spaces', () => {
  expect(cleanPhone('+31 20-123 45 67')).toBe('+31201234567');
});
