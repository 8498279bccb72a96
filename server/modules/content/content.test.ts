import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locales } from '#contract/locales.ts';
import type { CompanyRow } from '#server/db/schema/sites.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { contentPages, termsDate } from './content.service.ts';

describe('legal and info pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('exist in all 11 locales with every placeholder filled', async () => {
    const titles = new Map<string, Set<string>>();
    for (const locale of locales) {
      for (const page of contentPages) {
        const response = await t.app.inject({
          url: `/api/page.php?page=${page}`,
          headers: { cookie: `locale=${locale}` },
        });
        expect(response.statusCode, `${locale}/${page}`).toBe(200);
        const { title, html } = response.json();
        expect(html, `${locale}/${page}`).not.toMatch(/\{[a-z_]+\}/);
        expect(html.length, `${locale}/${page}`).toBeGreaterThan(300);
        if (!titles.has(page)) titles.set(page, new Set());
        titles.get(page)!.add(title);
      }
    }
    for (const [page, seen] of titles) expect(seen.size, page).toBeGreaterThan(5);
    const terms = (await t.app.inject({ url: '/api/page.php?page=terms' })).json().html;
    expect(terms).toContain('Amora Media B.V.');
    expect(terms).toContain('12345678');
    const service = (await t.app.inject({ url: '/api/page.php?page=service' })).json().html;
    expect(service).toContain('tel:+31201234567');
  });

  it('never shows the company address to traffic-source visitors', async () => {
    const plain = (await t.app.inject({ url: '/api/page.php?page=terms' })).json().html;
    const tracked = (
      await t.app.inject({
        url: '/api/page.php?page=terms',
        headers: { cookie: 'tracking=%7B%22network%22%3A%22x%22%7D' },
      })
    ).json().html;
    expect(plain).toContain('Herengracht 100');
    expect(tracked).not.toContain('Herengracht 100');
  });

  it('dates the terms 2023-12-01 unless the company was added later', () => {
    const company = (added: string) => ({ added }) as CompanyRow;
    expect(termsDate(undefined)).toBe('2023-12-01');
    expect(termsDate(company('2020-05-01'))).toBe('2023-12-01');
    expect(termsDate(company('2024-03-15'))).toBe('2024-03-15');
  });

  it('refuses an unknown page', async () => {
    expect((await t.app.inject({ url: '/api/page.php?page=secrets' })).statusCode).toBe(422);
  });
});

describe('complaints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('stores a complaint and acknowledges it by mail in the visitor language', async () => {
    const { complaints } = await import('#server/db/schema/social.ts');
    const { mailJobs } = await import('#server/db/schema/mail.ts');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/complaint.php',
      headers: { cookie: 'locale=de' },
      payload: { name: 'Kim', email: 'kim@example.com', subject: 'Billing', message: 'I was charged twice.' },
    });
    expect(response.statusCode).toBe(201);
    expect(await t.database.db.select().from(complaints)).toMatchObject([
      { name: 'Kim', subject: 'Billing', status: 'open' },
    ]);
    const [mail] = await t.database.db.select().from(mailJobs);
    expect(mail).toMatchObject({ to: 'kim@example.com', kind: 'complaint' });
    expect(mail?.subject).toBe(t.app.deps.translator.t('de', 'mail:complaint.subject', { site: 'Amora' }));
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/complaint.php',
      payload: { name: '', email: 'x', subject: '', message: '' },
    });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().fields).sort()).toEqual(['email', 'message', 'name', 'subject']);
  });
});

describe('fictional-profile wording', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("uses the page's language when the site sets no wording of its own", async () => {
    const german = (
      await t.app.inject({ url: '/api/page.php?page=terms', headers: { cookie: 'locale=de' } })
    ).json().html;
    expect(german).toContain('fiktive Profile');
    expect(german).not.toContain('fictional profiles');
  });
});
