// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createRoutesStub } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '#app/lib/i18n.ts';
import type { LocaleResources } from '#contract/i18n.ts';
import { locales } from '#contract/locales.ts';
import MailChangeDo from './mail-change-do.tsx';

afterEach(cleanup);

const catalog = (locale: string, area: string): Record<string, string> =>
  JSON.parse(readFileSync(path.resolve(process.cwd(), 'locales', locale, `${area}.json`), 'utf8'));
const resources: LocaleResources = { auth: catalog('en', 'auth'), common: catalog('en', 'common') };

function renderPage(confirmed: boolean) {
  const Stub = createRoutesStub([
    {
      path: '/mail-change/do',
      Component: MailChangeDo as never,
      action: () => ({ confirmed }),
    },
  ]);
  return render(
    <I18nextProvider i18n={createI18n('en', resources)}>
      <Stub initialEntries={['/mail-change/do?token=abcdefghijkl']} />
    </I18nextProvider>,
  );
}

describe('/mail-change/do', () => {
  it('asks to confirm and does not say "changed" before the change is confirmed', async () => {
    renderPage(true);
    const heading = await screen.findByTestId('mail-change-heading');
    expect(heading.textContent).toBe('Confirm your new e-mail address');
    expect(document.body.textContent).not.toMatch(/changed|confirmed/i);
    expect(screen.getByRole('button', { name: 'Confirm my new e-mail address' })).toBeTruthy();
  });

  it('says "changed" once the API confirmed it', async () => {
    renderPage(true);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm my new e-mail address' }));
    expect((await screen.findByRole('status')).textContent).toBe('Your new e-mail address is confirmed.');
    expect(screen.getByTestId('mail-change-heading').textContent).toBe(
      'Your e-mail address has been changed',
    );
  });

  it('says "not changed" when the link did not work', async () => {
    renderPage(false);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm my new e-mail address' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'This link has expired or was already used.',
    );
    expect(screen.getByTestId('mail-change-heading').textContent).toBe('Your e-mail address was not changed');
  });

  it("the page title (shown before confirming) asks to confirm in every locale, as the page's heading does", () => {
    for (const locale of locales) {
      expect(catalog(locale, 'common')['page.mailChangeDo'], locale).toBe(
        catalog(locale, 'auth')['mailChange.confirmHeading'],
      );
      expect(catalog(locale, 'common')['page.mailChangeDo'], locale).not.toBe(
        catalog(locale, 'auth')['mailChange.doneHeading'],
      );
    }
  });
});
