import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsSchema } from '#contract/sites.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { normalizeHost } from './sites.service.ts';

// Public addresses that the bundled GeoIP database places in these countries.
const dutchIp = '145.53.1.1';
const germanIp = '85.214.132.117';

describe('site settings per host', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  const settings = async (headers: Record<string, string>, query = '') => {
    const response = await t.app.inject({ url: `/api/settings.php${query}`, headers });
    expect(response.statusCode).toBe(200);
    return settingsSchema.parse(response.json());
  };

  it('answers every settings field of spec §3 for the request host', async () => {
    const response = await t.app.inject({ url: '/api/settings.php', headers: { host: 'localhost:3000' } });
    const body = response.json();
    for (const field of [
      'countries',
      'name',
      'index_title',
      'description',
      'visible_profile_fields',
      'visible_profile_notes',
      'geoip_country',
      'geoip_selected_country',
      'cdn_prefix',
      'message_credits',
      'photo_credits',
      'gift_credits',
      'signup_credits',
      'message_length',
      'minimum_message_costs',
      'support_email',
      'support_phone',
      'enable_site_entry_popup',
      'push_public_key',
      'search_fields',
      'domain',
      'domain_language',
      'fictional_warning',
      'fictional_singular',
      'fictional_plural',
      'refund_days',
      'signups',
      'logged_out_search',
      'logged_out_search_trafficsource',
      'member_resell',
      'niche',
      'company_id',
    ]) {
      expect(body, field).toHaveProperty(field);
    }
    expect(body.name).toBe('Amora');
    expect(body.push_public_key).toMatch(/^[A-Za-z0-9_-]{80,}$/);
  });

  it('serves the second site on its own host', async () => {
    const body = await settings({ host: 'nl.localhost' });
    expect(body.name).toBe('Flirtpunt');
    expect(body.domain_language).toBe('nl');
    expect(body.company_id).toBe(5);
  });

  it('gives an unknown host the default site', async () => {
    const body = await settings({ host: 'unknown.example' });
    expect(body.domain).toBe('localhost');
  });

  it('lets the domain query force the site, as the server renderer does', async () => {
    const body = await settings({ host: 'localhost' }, '?domain=nl.localhost&utm=x');
    expect(body.name).toBe('Flirtpunt');
  });

  it('takes the host from X-Forwarded-Host behind a trusted proxy', async () => {
    const body = await settings({ host: 'internal:3000', 'x-forwarded-host': 'www.nl.localhost' });
    expect(body.name).toBe('Flirtpunt');
  });

  it("selects the visitor's country when the site serves it, else the site's first", async () => {
    const dutch = await settings({ host: 'nl.localhost', 'x-forwarded-for': dutchIp });
    expect(dutch.geoip_country).toBe('NL');
    expect(dutch.geoip_selected_country).toBe('NL');
    const german = await settings({ host: 'nl.localhost', 'x-forwarded-for': germanIp });
    expect(german.geoip_country).toBe('DE');
    expect(german.geoip_selected_country).toBe('NL');
    const local = await settings({ host: 'localhost' });
    expect(local.geoip_country).toBeNull();
    expect(local.geoip_selected_country).toBe('NL');
  });

  it('answers the company of the site', async () => {
    const first = await t.app.inject({ url: '/api/companyinfo.php', headers: { host: 'localhost' } });
    expect(first.json()).toMatchObject({ name: 'Amora Media B.V.', city: 'Amsterdam', kvk: '12345678' });
    const second = await t.app.inject({ url: '/api/companyinfo.php', headers: { host: 'nl.localhost' } });
    expect(second.json()).toMatchObject({ name: 'Flirtpunt Online B.V.', vat_numbers: ['NL009876543B01'] });
  });

  it('drops its cached settings when a site changes', async () => {
    const before = await settings({ host: 'nl.localhost' });
    const site = await t.app.deps.sites.resolve('nl.localhost');
    await t.app.deps.sites.update(site.id, { messageCredits: before.message_credits + 4 });
    const after = await settings({ host: 'nl.localhost' });
    expect(after.message_credits).toBe(before.message_credits + 4);
  });
});

describe('normalizeHost', () => {
  it('drops port, case, trailing dot and www', () => {
    expect(normalizeHost('WWW.Example.COM.:8080')).toBe('example.com');
    expect(normalizeHost('[::1]:3000')).toBe('[::1]');
    expect(normalizeHost(undefined)).toBe('');
  });
});
