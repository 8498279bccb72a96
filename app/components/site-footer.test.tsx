// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompanyInfo } from '#contract/sites.ts';
import { renderShell } from '../../tests/setup/render-shell.tsx';
import { CompanyBlock } from './company-block.tsx';
import { SiteFooter } from './site-footer.tsx';

afterEach(cleanup);

const company: CompanyInfo = {
  name: 'Amora Media B.V.',
  address: 'Herengracht 100',
  kvk: '12345678',
  city: 'Amsterdam',
  country: 'NL',
  tradenames: ['Amora', 'Flirtpunt'],
  vat_numbers: ['NL001234567B01'],
  support_phone: '+31 20-123 45 67',
  delete_discount: 30,
  added: '2023-06-01',
};

describe('company block', () => {
  it('has its own block for companies 1, 5 and 6 and the full one for others', async () => {
    const blocks: Record<number, string> = {};
    for (const id of [1, 5, 6, 9]) {
      const { container, unmount } = renderShell(
        <CompanyBlock companyId={id} company={company} site="Amora" />,
      );
      await screen.findByText(/Amora Media B\.V\./);
      blocks[id] = container.textContent ?? '';
      unmount();
    }
    expect(blocks[1]).toContain('Chamber of Commerce no. 12345678');
    expect(blocks[5]).toContain('Amora is a service of Amora Media B.V.');
    expect(blocks[5]).toContain('Amora · Flirtpunt');
    expect(blocks[6]).not.toContain('Herengracht');
    expect(blocks[9]).toBe(blocks[1]);
    expect(new Set([blocks[1], blocks[5], blocks[6]]).size).toBe(3);
  });
});

describe('footer', () => {
  it('links the legal pages and shows payment icons and the company to ordinary visitors', async () => {
    renderShell(<SiteFooter />, { company });
    const footer = await screen.findByTestId('site-footer');
    for (const name of [
      'Terms and conditions',
      'Privacy policy',
      'Cookie policy',
      'Ban policy',
      'Pricing',
      'Complaints',
      'Return policy',
      'FAQ',
      'Customer service',
    ]) {
      expect(screen.getByRole('link', { name })).toBeTruthy();
    }
    expect(screen.getByTestId('payment-icons').querySelectorAll('img')).toHaveLength(3);
    expect(screen.getByTestId('company-block').textContent).toContain('Herengracht 100');
    expect(footer.textContent).not.toContain('2257');
  });

  it('hides payment icons and the company address from traffic-source visitors', async () => {
    renderShell(<SiteFooter />, { company, hasTrafficSource: true });
    await screen.findByTestId('site-footer');
    expect(screen.queryByTestId('payment-icons')).toBeNull();
    expect(screen.queryByTestId('company-block')).toBeNull();
  });

  it('adds the US notice in English when the site enables it', async () => {
    renderShell(<SiteFooter />, { company, settings: { us_footer: true } });
    expect((await screen.findByTestId('us-footer')).textContent).toContain('18 U.S.C. 2257');
  });
});
