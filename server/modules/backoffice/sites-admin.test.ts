import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { staffAudit } from '#server/db/schema/staff.ts';
import { nextIp } from '../../../tests/setup/members.ts';
import { signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { testPooler } from '../../../tests/setup/test-database.ts';

let domainCounter = 0;
const newDomain = (prefix = 'site') => `${prefix}${process.pid}x${++domainCounter}.localhost`;

/** A complete new site as the editor sends it (company 1 of the demo). */
const siteBody = (domain: string, extra: Record<string, unknown> = {}) => ({
  domain,
  name: 'Liebesglück',
  index_title: 'Liebesglück – Singles in deiner Nähe',
  description: 'Flirten und chatten mit Singles in deiner Nähe.',
  countries: ['DE', 'AT'],
  domain_language: 'de',
  company_id: 1,
  support_email: 'hilfe@example.com',
  theme_color: '#3355AA',
  minimum_message_costs: { DE: { costs: 25, currency: 'EUR' } },
  ...extra,
});

const png = () =>
  sharp({ create: { width: 64, height: 32, channels: 3, background: '#3355aa' } })
    .png()
    .toBuffer();

function multipart(file: Buffer, fields: Record<string, string> = {}) {
  const boundary = `----backoffice${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('sites and companies in the back office', () => {
  let t: TestApp;
  let admin: TestStaff;
  let moderator: TestStaff;
  let operator: TestStaff;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInStaff(t.app, 'admin');
    moderator = await signedInStaff(t.app, 'moderator');
    operator = await signedInStaff(t.app, 'operator');
  });
  afterAll(() => t.close());

  const call = (
    who: TestStaff,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: Record<string, unknown>,
  ) =>
    t.app.inject({
      method,
      url,
      remoteAddress: nextIp(),
      headers: { cookie: who.cookie },
      ...(payload ? { payload } : {}),
    });
  const settingsOn = async (host: string) => {
    const response = await t.app.inject({ url: '/api/settings.php', headers: { host } });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const auditOf = (action: string, object: string) =>
    t.database.db
      .select()
      .from(staffAudit)
      .where(and(eq(staffAudit.action, action), eq(staffAudit.object, object)));

  it('refuses operators and moderators every site and company call (403 forbidden)', async () => {
    for (const who of [operator, moderator]) {
      for (const [method, url, payload] of [
        ['GET', '/api/admin/sites.php', undefined],
        ['POST', '/api/admin/sites.php', siteBody(newDomain())],
        ['PUT', '/api/admin/sites.php', { id: 1, name: 'Hijacked' }],
        ['GET', '/api/admin/companies.php', undefined],
        ['POST', '/api/admin/companies.php', { name: 'X', address: 'Y', kvk: '1', city: 'Z', country: 'NL' }],
        ['PUT', '/api/admin/companies.php', { id: 1, name: 'Hijacked' }],
      ] as const) {
        const response = await call(who, method, url, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().error).toBe('forbidden');
      }
    }
    expect((await settingsOn('localhost')).name).not.toBe('Hijacked');
  });

  it('creates a site that this instance serves at once on its domain, in its language, with an audit entry', async () => {
    const domain = newDomain('liebe');
    // The site directory is warm before the site exists: the unknown host gets the default site.
    expect((await settingsOn(domain)).domain).toBe('localhost');
    const created = await call(
      admin,
      'POST',
      '/api/admin/sites.php',
      siteBody(`WWW.${domain.toUpperCase()}`),
    );
    expect(created.statusCode).toBe(201);
    const site = created.json().site;
    expect(site).toMatchObject({
      domain,
      name: 'Liebesglück',
      domain_language: 'de',
      theme_color: '#3355aa',
      countries: ['DE', 'AT'],
      is_default: false,
      message_credits: 1,
      min_age: 18,
    });
    const served = await settingsOn(domain);
    expect(served).toMatchObject({ domain, name: 'Liebesglück', domain_language: 'de', company_id: 1 });
    expect(await auditOf('site.create', `site:${site.id}`)).toEqual([
      expect.objectContaining({ staffId: admin.id, object: `site:${site.id}` }),
    ]);
    const listed = (await call(admin, 'GET', '/api/admin/sites.php')).json().sites;
    expect(listed.map((entry: { domain: string }) => entry.domain)).toContain(domain);
  });

  it('changes every Settings field of a site, served at once, audited', async () => {
    const site = (await call(admin, 'POST', '/api/admin/sites.php', siteBody(newDomain()))).json().site;
    const changes = {
      name: 'Herzklopfen',
      index_title: 'Herzklopfen',
      description: 'Neu',
      countries: ['DE', 'AT', 'CH'],
      domain_language: 'fr',
      timezone: 'Europe/Zurich',
      visible_profile_fields: ['gender', 'hair'],
      visible_profile_notes: ['about'],
      search_fields: ['gender', 'age'],
      cdn_prefix: 'https://cdn.example.com',
      message_credits: 2,
      photo_credits: 3,
      gift_credits: 4,
      signup_credits: 15,
      message_length: 800,
      free_conversations: 1,
      free_messages: 2,
      minimum_message_costs: { CH: { costs: 30, currency: 'CHF' } },
      min_age: 21,
      support_email: 'support@herz.example',
      support_phone: '+41 44 123 45 67',
      enable_site_entry_popup: false,
      us_footer: true,
      fictional_warning: 'Fiktive Profile',
      fictional_singular: 'Animateur',
      fictional_plural: 'Animateure',
      refund_days: 30,
      signups: 'with_trafficsource',
      logged_out_search: true,
      logged_out_search_trafficsource: true,
      member_resell: true,
      niche: 4,
      company_id: 5,
      mail_from_name: 'Herzklopfen',
      mail_from_address: 'post@herz.example',
      theme_color: '#112233',
      logo_url: 'https://herz.example/logo.png',
      texts: {
        de: { index_title: 'Herzklopfen – Singles', manifest_name: 'Herz' },
        fr: { description: 'Rencontres' },
      },
    };
    const updated = await call(admin, 'PUT', '/api/admin/sites.php', { id: site.id, ...changes });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().site).toMatchObject(changes);
    const {
      push_public_key: _key,
      geoip_country: _c,
      geoip_selected_country: _s,
      ...served
    } = await settingsOn(site.domain);
    for (const [key, value] of Object.entries(served)) {
      if (key in changes && key !== 'description')
        expect(value, key).toEqual(changes[key as keyof typeof changes]);
    }
    // The per-language text of the site's language (fr) wins over the column.
    expect(served.description).toBe('Rencontres');
    expect(await auditOf('site.update', `site:${site.id}`)).toHaveLength(1);
  });

  it('answers 422 with an error at each wrong field', async () => {
    const wrong = await call(admin, 'POST', '/api/admin/sites.php', {
      ...siteBody('not a domain'),
      countries: ['DE', 'DE'],
      domain_language: 'xx',
      support_email: 'nope',
      theme_color: 'blue',
      niche: 9,
      min_age: 16,
      timezone: 'Mars/Base',
      signups: 'sometimes',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      error: 'validation_failed',
      fields: {
        domain: 'invalid',
        countries: 'duplicate',
        domain_language: 'invalid',
        support_email: 'invalid_email',
        theme_color: 'invalid_color',
        niche: 'out_of_range',
        min_age: 'out_of_range',
        timezone: 'invalid',
        signups: 'invalid',
      },
    });
    const missing = await call(admin, 'POST', '/api/admin/sites.php', { domain: newDomain() });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().fields)).toEqual(
      expect.arrayContaining(['name', 'countries', 'domain_language', 'company_id', 'support_email']),
    );
    const unknownCompany = await call(
      admin,
      'POST',
      '/api/admin/sites.php',
      siteBody(newDomain(), { company_id: 999 }),
    );
    expect(unknownCompany.statusCode).toBe(422);
    expect(unknownCompany.json().fields).toEqual({ company_id: 'unknown' });
    const notServed = await call(
      admin,
      'POST',
      '/api/admin/sites.php',
      siteBody(newDomain(), { minimum_message_costs: { FR: { costs: 20, currency: 'EUR' } } }),
    );
    expect(notServed.json().fields).toEqual({ 'minimum_message_costs.FR': 'not_served' });
    // A change that leaves a minimum cost for a country the site no longer serves is refused too.
    const site = (await call(admin, 'POST', '/api/admin/sites.php', siteBody(newDomain()))).json().site;
    const dropped = await call(admin, 'PUT', '/api/admin/sites.php', { id: site.id, countries: ['AT'] });
    expect(dropped.json().fields).toEqual({ 'minimum_message_costs.DE': 'not_served' });
    expect((await call(admin, 'PUT', '/api/admin/sites.php', { id: 99999, name: 'Nobody' })).statusCode).toBe(
      404,
    );
  });

  it('keeps domains unique, also when two admins add the same domain at once', async () => {
    const taken = await call(admin, 'POST', '/api/admin/sites.php', siteBody('nl.localhost'));
    expect(taken.statusCode).toBe(422);
    expect(taken.json().fields).toEqual({ domain: 'taken' });
    const site = (await call(admin, 'POST', '/api/admin/sites.php', siteBody(newDomain()))).json().site;
    const renamed = await call(admin, 'PUT', '/api/admin/sites.php', { id: site.id, domain: 'localhost' });
    expect(renamed.json().fields).toEqual({ domain: 'taken' });

    const domain = newDomain('race');
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call(admin, 'POST', '/api/admin/sites.php', siteBody(domain))),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 422, 422, 422]);
    for (const answer of answers.filter((candidate) => candidate.statusCode === 422)) {
      expect(answer.json().fields).toEqual({ domain: 'taken' });
    }
  });

  it('makes one site the default for unknown hosts, and only one', async () => {
    const site = (
      await call(admin, 'POST', '/api/admin/sites.php', siteBody(newDomain(), { is_default: true }))
    ).json().site;
    expect((await settingsOn('unknown-host.example')).domain).toBe(site.domain);
    const sites = (await call(admin, 'GET', '/api/admin/sites.php')).json().sites as {
      id: number;
      is_default: boolean;
    }[];
    expect(sites.filter((entry) => entry.is_default).map((entry) => entry.id)).toEqual([site.id]);
    const back = await call(admin, 'PUT', '/api/admin/sites.php', { id: 1, is_default: true });
    expect(back.statusCode).toBe(200);
    expect((await settingsOn('unknown-host.example')).domain).toBe('localhost');
  });

  it('uploads a logo: re-encoded, public, an absolute URL for mails', async () => {
    const site = (await call(admin, 'POST', '/api/admin/sites.php', siteBody(newDomain()))).json().site;
    const { payload, contentType } = multipart(await png());
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/admin/site-logo.php?site=${site.id}`,
      headers: { cookie: admin.cookie, 'content-type': contentType },
      payload,
    });
    expect(uploaded.statusCode).toBe(200);
    const logo = new URL(uploaded.json().site.logo_url);
    expect(logo.origin).toBe(`http://${site.domain}:${t.config.PORT}`);
    expect(logo.pathname).toMatch(/^\/media\/public\/[A-Za-z0-9_-]+\.webp$/);
    const image = await t.app.inject({ url: logo.pathname });
    expect(image.statusCode).toBe(200);
    expect((await sharp(image.rawPayload).metadata()).format).toBe('webp');
    const notImage = multipart(Buffer.from('not an image'));
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/admin/site-logo.php?site=${site.id}`,
      headers: { cookie: admin.cookie, 'content-type': notImage.contentType },
      payload: notImage.payload,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe('unsupported_image');
  });

  it('adds and changes companies; the footer’s company info changes at once', async () => {
    const created = await call(admin, 'POST', '/api/admin/companies.php', {
      name: 'Herz Media GmbH',
      address: 'Hauptstraße 1',
      kvk: 'HRB 12345',
      city: 'Berlin',
      country: 'Deutschland',
      tradenames: ['Liebesglück'],
      vat_numbers: ['DE123456789'],
      support_phone: '+49 30 1234567',
      delete_discount: 20,
    });
    expect(created.statusCode).toBe(201);
    const company = created.json().company;
    expect(company).toMatchObject({ name: 'Herz Media GmbH', delete_discount: 20, sites: [] });
    expect([1, 5]).not.toContain(company.id);
    const site = (
      await call(admin, 'POST', '/api/admin/sites.php', siteBody(newDomain(), { company_id: company.id }))
    ).json().site;
    const info = async () =>
      (await t.app.inject({ url: '/api/companyinfo.php', headers: { host: site.domain } })).json();
    expect((await info()).name).toBe('Herz Media GmbH');
    const changed = await call(admin, 'PUT', '/api/admin/companies.php', { id: company.id, city: 'Hamburg' });
    expect(changed.json().company).toMatchObject({
      city: 'Hamburg',
      sites: [{ id: site.id, name: site.name }],
    });
    expect((await info()).city).toBe('Hamburg');
    const wrong = await call(admin, 'POST', '/api/admin/companies.php', {
      name: '',
      address: 'x',
      kvk: 'x',
      city: 'x',
      country: 'x',
      vat_numbers: ['123'],
      delete_discount: 200,
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().fields).toMatchObject({
      name: 'required',
      'vat_numbers.0': 'invalid',
      delete_discount: 'out_of_range',
    });
    expect(await auditOf('company.create', `company:${company.id}`)).toHaveLength(1);
    expect(await auditOf('company.update', `company:${company.id}`)).toHaveLength(1);
    // Companies added at once each get their own id.
    const burst = await Promise.all(
      Array.from({ length: 3 }, (_, index) =>
        call(admin, 'POST', '/api/admin/companies.php', {
          name: `Burst ${index}`,
          address: 'a',
          kvk: 'k',
          city: 'c',
          country: 'NL',
        }),
      ),
    );
    expect(burst.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(burst.map((answer) => answer.json().company.id)).size).toBe(3);
  });
});

if (process.env.DATABASE_URL && process.env.REDIS_URL) {
  describe('sites on two instances sharing PostgreSQL and Redis', () => {
    it('serves a site created or changed through instance one on instance two at once', async () => {
      const first = await createTestApp();
      const { buildApp } = await import('#server/app.ts');
      const second = await buildApp(first.config, {
        database: await (await import('#server/db/client.ts')).connectPostgres(
          first.databaseUrl!,
          3,
          testPooler,
        ),
        web: false,
        redisPrefix: first.redisPrefix,
      });
      try {
        const domain = newDomain('twin');
        const onSecond = async () => {
          const response = await second.inject({ url: '/api/settings.php', headers: { host: domain } });
          return response.json() as { domain: string; name: string; theme_color: string };
        };
        // Instance two has read the sites before the new one exists.
        expect((await onSecond()).domain).toBe('localhost');
        const admin = await signedInStaff(first.app, 'admin');
        const created = await first.app.inject({
          method: 'POST',
          url: '/api/admin/sites.php',
          headers: { cookie: admin.cookie },
          payload: siteBody(domain),
        });
        expect(created.statusCode).toBe(201);
        // Instance two reads the sites again when the announcement reaches it over Redis.
        await vi.waitFor(
          async () => expect(await onSecond()).toMatchObject({ domain, name: 'Liebesglück' }),
          { timeout: 2000, interval: 20 },
        );
        await first.app.inject({
          method: 'PUT',
          url: '/api/admin/sites.php',
          headers: { cookie: admin.cookie },
          payload: { id: created.json().site.id, name: 'Neuer Name' },
        });
        await vi.waitFor(async () => expect((await onSecond()).name).toBe('Neuer Name'), {
          timeout: 2000,
          interval: 20,
        });
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
}
