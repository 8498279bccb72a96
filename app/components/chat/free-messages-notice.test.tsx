// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '#app/lib/i18n.ts';
import type { LocaleResources } from '#contract/i18n.ts';
import type { Locale } from '#contract/locales.ts';
import { renderShell } from '../../../tests/setup/render-shell.tsx';
import { FreeMessagesNotice } from './free-messages-notice.tsx';
import { usualReplyText } from './off-shift.ts';

function i18nFor(locale: Locale) {
  const dir = path.resolve(process.cwd(), 'locales', locale);
  const resources: LocaleResources = Object.fromEntries(
    readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file.slice(0, -5), JSON.parse(readFileSync(path.join(dir, file), 'utf8'))]),
  );
  return createI18n(locale, resources).getFixedT(locale);
}

const costs = (free: number) => ({
  message: 5,
  photo: 10,
  gift: 3,
  free_messages_left: free,
  minimum_message_cost: null,
});

/** The thread's costs as sends change them: each tap on "send" uses one free message. */
function Sends({ free }: { free: number }) {
  const [left, setLeft] = useState(free);
  return (
    <>
      <button type="button" onClick={() => setLeft((count) => Math.max(0, count - 1))}>
        send
      </button>
      <FreeMessagesNotice costs={costs(left)} />
    </>
  );
}

describe('the notice that free messages ran out', () => {
  afterEach(() => {
    cleanup();
    window.localStorage.clear();
  });

  it('shows once, when the last free message goes out, with the price of the next ones', async () => {
    renderShell(<Sends free={2} />);
    fireEvent.click(await screen.findByRole('button', { name: 'send' }));
    expect(screen.queryByTestId('free-messages-used-up')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'send' }));
    const notice = await screen.findByTestId('free-messages-used-up');
    expect(notice.textContent).toContain('each message costs 5 credits');
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(screen.queryByTestId('free-messages-used-up')).toBeNull();
    cleanup();
    // Seen on this device: the next time the count drops to zero it stays away.
    renderShell(<Sends free={1} />);
    fireEvent.click(await screen.findByRole('button', { name: 'send' }));
    expect(screen.queryByTestId('free-messages-used-up')).toBeNull();
  });

  it('never shows to a member who had no free messages to begin with', async () => {
    renderShell(<Sends free={0} />);
    fireEvent.click(await screen.findByRole('button', { name: 'send' }));
    expect(screen.queryByTestId('free-messages-used-up')).toBeNull();
  });
});

describe('the usual reply time off shift', () => {
  it('reads in minutes, hours or days with the forms of the language', () => {
    const en = i18nFor('en');
    expect(usualReplyText(1, en)).toBe('Usually replies within 1 minute');
    expect(usualReplyText(45, en)).toBe('Usually replies within 45 minutes');
    expect(usualReplyText(180, en)).toBe('Usually replies within 3 hours');
    expect(usualReplyText(61, en)).toBe('Usually replies within 2 hours');
    expect(usualReplyText(3 * 24 * 60, en)).toBe('Usually replies within 3 days');
    expect(usualReplyText(120, i18nFor('pl'))).toBe('Zwykle odpowiada w ciągu 2 godzin');
  });
});
