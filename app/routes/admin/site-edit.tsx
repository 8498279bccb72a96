import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { formError } from '#app/lib/actions.server.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import {
  type AdminSite,
  postbackEventOptions,
  signupRuleOptions,
  siteProfileFieldOptions,
  siteProfileNoteOptions,
  siteSearchFieldOptions,
  siteTextFieldOptions,
} from '#contract/admin-sites.ts';
import type { ErrorBody } from '#contract/common.ts';
import { locales } from '#contract/locales.ts';
import type { Route } from './+types/site-edit';
import { languageName } from './admin-socket.ts';
import {
  AdminCheckbox,
  AdminField,
  AdminImageUpload,
  AdminInput,
  defined,
  list,
  text,
  whole,
} from './backoffice-form.tsx';
import { StaffingHours, staffingHoursOf } from './site-staffing.tsx';

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const [sites, companies] = await Promise.all([
    api('GET /api/admin/sites.php'),
    api('GET /api/admin/companies.php'),
  ]);
  if (!sites.ok) throw new Response(null, { status: sites.status });
  const site =
    params.id === 'new' ? null : (sites.data.sites.find((entry) => String(entry.id) === params.id) ?? null);
  if (params.id !== 'new' && !site) throw new Response(null, { status: 404 });
  return {
    site,
    companies: companies.ok ? companies.data.companies : [],
    savedNow: new URL(request.url).searchParams.has('saved'),
  };
}

/** "NL 25 EUR" per line → { NL: { costs: 25, currency: 'EUR' } } (a wrong line is named by the API). */
function minimumCosts(value: string | undefined) {
  if (value === undefined) return undefined;
  const costs: Record<string, { costs: number | string; currency: string }> = {};
  for (const line of value
    .split('\n')
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const [country = '', amount = '', currency = ''] = line.split(/[\s:;,]+/);
    costs[country.toUpperCase()] = {
      costs: /^\d+$/.test(amount) ? Number(amount) : amount,
      currency: currency.toUpperCase(),
    };
  }
  return costs;
}

/**
 * "network URL events" per line → postbacks (events comma-separated; all three when left out). A
 * wrong line is named by the API (postbacks.N.url).
 */
function postbacks(value: string | undefined) {
  if (value === undefined) return undefined;
  return value
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [network = '', url = '', events = ''] = line.split(/\s+/);
      return {
        network,
        url,
        events: events ? events.split(',').filter(Boolean) : [...postbackEventOptions],
      };
    });
}

/** A decimal from a form field (a comma counts as the point); the text itself when it is none (the API names it). */
function decimal(form: FormData, name: string): number | string | undefined {
  const value = text(form, name)?.trim();
  if (value === undefined || value === '') return undefined;
  return /^\d+([.,]\d+)?$/.test(value) ? Number(value.replace(',', '.')) : value;
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const form = await request.formData();
  const checked = (name: string) => form.get(name) === 'on';
  const body = defined({
    domain: text(form, 'domain'),
    name: text(form, 'name'),
    is_default: checked('is_default'),
    index_title: text(form, 'index_title'),
    description: text(form, 'description'),
    countries: list(form, 'countries')?.map((code) => code.toUpperCase()),
    domain_language: text(form, 'domain_language'),
    timezone: text(form, 'timezone'),
    company_id: whole(form, 'company_id'),
    visible_profile_fields: form.getAll('visible_profile_fields').map(String),
    visible_profile_notes: form.getAll('visible_profile_notes').map(String),
    search_fields: form.getAll('search_fields').map(String),
    message_credits: whole(form, 'message_credits'),
    photo_credits: whole(form, 'photo_credits'),
    gift_credits: whole(form, 'gift_credits'),
    time_bonus_percentage: form.has('time_bonus_percentage')
      ? text(form, 'time_bonus_percentage')?.trim()
        ? whole(form, 'time_bonus_percentage')
        : null
      : undefined,
    signup_credits: whole(form, 'signup_credits'),
    message_length: whole(form, 'message_length'),
    free_conversations: whole(form, 'free_conversations'),
    free_messages: whole(form, 'free_messages'),
    max_claims: whole(form, 'max_claims'),
    reply_target_minutes: whole(form, 'reply_target_minutes'),
    minimum_message_costs: minimumCosts(text(form, 'minimum_message_costs')),
    min_age: whole(form, 'min_age'),
    refund_days: whole(form, 'refund_days'),
    niche: whole(form, 'niche'),
    signups: text(form, 'signups'),
    logged_out_search: checked('logged_out_search'),
    logged_out_search_trafficsource: checked('logged_out_search_trafficsource'),
    member_resell: checked('member_resell'),
    enable_site_entry_popup: checked('enable_site_entry_popup'),
    us_footer: checked('us_footer'),
    fictional_warning: text(form, 'fictional_warning'),
    fictional_singular: text(form, 'fictional_singular'),
    fictional_plural: text(form, 'fictional_plural'),
    support_email: text(form, 'support_email'),
    support_phone: text(form, 'support_phone'),
    theme_color: text(form, 'theme_color'),
    logo_url: text(form, 'logo_url')?.trim() || null,
    mail_from_name: text(form, 'mail_from_name')?.trim() || null,
    mail_from_address: text(form, 'mail_from_address')?.trim() || null,
    cdn_prefix: text(form, 'cdn_prefix'),
    postbacks: postbacks(text(form, 'postbacks')),
    staffing_hours: staffingHoursOf(form),
    typical_reply_minutes: whole(form, 'typical_reply_minutes'),
    screening_explicit: decimal(form, 'screening_explicit'),
    screening_face_required: form.has('screening_explicit') ? checked('screening_face_required') : undefined,
    strike_suspend_at: whole(form, 'strike_suspend_at'),
    strike_suspension_days: whole(form, 'strike_suspension_days'),
    texts: Object.fromEntries(
      locales.map((code) => [
        code,
        Object.fromEntries(
          siteTextFieldOptions.map((name) => [name, text(form, `texts.${code}.${name}`) ?? '']),
        ),
      ]),
    ),
  });
  const creating = params.id === 'new';
  const api = staffApi(context.api);
  const result = creating
    ? await api('POST /api/admin/sites.php', { body })
    : await api('PUT /api/admin/sites.php', { body: { ...body, id: Number(params.id) } });
  if (!result.ok) return formError(result);
  if (creating) throw redirect(`/admin/sites/${result.data.site.id}?saved=1`);
  return data({ saved: true as const, errors: undefined as { status: number; body: ErrorBody } | undefined });
}

/** The profile catalog's label of a field name. */
const profileFieldKey: Record<string, string> = {
  body_type: 'bodyType',
  eye_colour: 'eyeColour',
  relationship_status: 'relationshipStatus',
  countryregion: 'region',
};

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="card mb-3">
      <div className="card-body">
        <legend className="h6 card-title">{title}</legend>
        <div className="row row-cols-1 row-cols-md-2 gx-3">{children}</div>
      </div>
    </fieldset>
  );
}

/** The logo: uploaded here (re-encoded, public) or given as a URL in the form. */
function LogoUpload({ site }: { site: AdminSite }) {
  const { t } = useTranslation();
  return (
    <AdminImageUpload
      label={t('admin:site.logo')}
      uploadUrl={`/api/admin/site-logo.php?site=${site.id}`}
      preview={
        site.logo_url ? (
          <img
            src={site.logo_url}
            alt={t('admin:site.logoAlt', { name: site.name })}
            style={{ maxHeight: 48, maxWidth: 160 }}
          />
        ) : (
          <span className="text-body-secondary small">{t('admin:site.noLogo')}</span>
        )
      }
      inputLabel={t('admin:site.uploadLogo')}
      failedText={t('admin:site.logoFailed')}
    />
  );
}

/** A site's editor (admins): every Settings field, its texts and branding; errors at the fields. */
export default function SiteEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  const navigation = useNavigation();
  const { site, companies } = loaderData;
  const errors = actionData?.errors;
  const saved = (actionData !== undefined && 'saved' in actionData) || loaderData.savedNow;
  const field = (
    name: keyof AdminSite,
    label: string,
    options: Partial<Parameters<typeof AdminInput>[0]> = {},
  ) => (
    <AdminInput
      name={name}
      label={label}
      errors={errors}
      defaultValue={site ? (site[name] as string | number | null) : undefined}
      {...options}
    />
  );
  const number = (name: keyof AdminSite, label: string, fallback: number) =>
    field(name, label, {
      type: 'number',
      inputMode: 'numeric',
      defaultValue: site ? (site[name] as number) : fallback,
    });
  const checks = (
    name: 'visible_profile_fields' | 'visible_profile_notes' | 'search_fields',
    options: readonly string[],
    fallback: string[],
  ) => (
    <AdminField name={name} label={t(`admin:site.${name}`)} errors={errors}>
      {() => (
        <div className="d-flex flex-wrap column-gap-3">
          {options.map((option) => (
            <AdminCheckbox
              key={option}
              name={name}
              value={option}
              label={t(`profile:field.${profileFieldKey[option] ?? option}`)}
              defaultChecked={(site ? site[name] : fallback).includes(option)}
            />
          ))}
        </div>
      )}
    </AdminField>
  );
  const costs = site
    ? Object.entries(site.minimum_message_costs)
        .map(([country, cost]) => `${country} ${cost.costs} ${cost.currency}`)
        .join('\n')
    : '';
  return (
    <div style={{ maxWidth: 1100 }}>
      <nav className="mb-2">
        <Link to="/admin/sites">{t('admin:sites.back')}</Link>
      </nav>
      <h1 className="h4">
        {site ? t('admin:sites.editHeading', { name: site.name }) : t('admin:sites.new')}
      </h1>
      {saved && !errors && (
        <div className="alert alert-success" role="status">
          {t('admin:sites.saved')}
        </div>
      )}
      {errors && (
        <div className="alert alert-danger" role="alert">
          {errors.body.fields ? t('admin:editor.fixErrors') : errors.body.message}
        </div>
      )}
      <FormAlert errors={undefined} />
      <Form method="post" noValidate key={site?.updated_at ?? 'new'}>
        <Section title={t('admin:site.sectionIdentity')}>
          {field('name', t('admin:site.name'), { required: true })}
          {field('domain', t('admin:site.domain'), { required: true, hint: t('admin:site.domainHint') })}
          <AdminField name="domain_language" label={t('admin:site.domainLanguage')} errors={errors}>
            {({ id, invalid }) => (
              <select
                id={id}
                name="domain_language"
                className={`form-select${invalid ? ' is-invalid' : ''}`}
                defaultValue={site?.domain_language ?? 'en'}
              >
                {locales.map((code) => (
                  <option key={code} value={code}>
                    {languageName(code, locale)}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
          {field('countries', t('admin:site.countries'), {
            required: true,
            hint: t('admin:site.countriesHint'),
            defaultValue: site?.countries.join(', '),
          })}
          {field('timezone', t('admin:site.timezone'), {
            defaultValue: site?.timezone ?? 'Europe/Amsterdam',
          })}
          <AdminField name="company_id" label={t('admin:site.company')} errors={errors}>
            {({ id, invalid }) => (
              <select
                id={id}
                name="company_id"
                className={`form-select${invalid ? ' is-invalid' : ''}`}
                defaultValue={site?.company_id ?? companies[0]?.id}
              >
                {companies.map((company) => (
                  <option key={company.id} value={company.id}>
                    {company.name}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
          <div className="mb-3">
            <AdminCheckbox
              name="is_default"
              label={t('admin:site.isDefault')}
              defaultChecked={site?.is_default ?? false}
            />
          </div>
        </Section>
        <Section title={t('admin:site.sectionTexts')}>
          {field('index_title', t('admin:site.indexTitle'))}
          {field('description', t('admin:site.description'))}
          {field('fictional_warning', t('admin:site.fictionalWarning'))}
          {field('fictional_singular', t('admin:site.fictionalSingular'))}
          {field('fictional_plural', t('admin:site.fictionalPlural'))}
        </Section>
        <fieldset className="card mb-3">
          <div className="card-body">
            <legend className="h6 card-title">{t('admin:site.sectionLanguageTexts')}</legend>
            <p className="small text-body-secondary">{t('admin:site.languageTextsHint')}</p>
            {locales.map((code) => (
              <details key={code} className="mb-2">
                <summary>{languageName(code, locale)}</summary>
                <div className="row row-cols-1 row-cols-md-2 gx-3 pt-2">
                  {siteTextFieldOptions.map((name) => (
                    <AdminInput
                      key={name}
                      name={`texts.${code}.${name}`}
                      label={t(`admin:siteText.${name}`)}
                      errors={errors}
                      defaultValue={site?.texts[code]?.[name]}
                    />
                  ))}
                </div>
              </details>
            ))}
          </div>
        </fieldset>
        <Section title={t('admin:site.sectionCosts')}>
          {number('message_credits', t('admin:site.messageCredits'), 1)}
          {number('photo_credits', t('admin:site.photoCredits'), 2)}
          {number('gift_credits', t('admin:site.giftCredits'), 3)}
          {number('signup_credits', t('admin:site.signupCredits'), 0)}
          {field('time_bonus_percentage', t('admin:site.timeBonus'), {
            type: 'number',
            inputMode: 'numeric',
            hint: t('admin:site.timeBonusHint'),
          })}
          {number('message_length', t('admin:site.messageLength'), 1000)}
          {number('free_conversations', t('admin:site.freeConversations'), 2)}
          {number('free_messages', t('admin:site.freeMessages'), 3)}
          {number('max_claims', t('admin:site.maxClaims'), 2)}
          {number('reply_target_minutes', t('admin:site.replyTargetMinutes'), 15)}
          <AdminField
            name="minimum_message_costs"
            label={t('admin:site.minimumMessageCosts')}
            errors={errors}
            hint={t('admin:site.minimumMessageCostsHint')}
          >
            {({ id, invalid, describedBy }) => (
              <textarea
                id={id}
                name="minimum_message_costs"
                rows={3}
                className={`form-control${invalid ? ' is-invalid' : ''}`}
                aria-describedby={describedBy}
                defaultValue={costs}
              />
            )}
          </AdminField>
        </Section>
        <Section title={t('admin:site.sectionRules')}>
          <AdminField name="signups" label={t('admin:site.signups')} errors={errors}>
            {({ id, invalid }) => (
              <select
                id={id}
                name="signups"
                className={`form-select${invalid ? ' is-invalid' : ''}`}
                defaultValue={site?.signups ?? 'all'}
              >
                {signupRuleOptions.map((option) => (
                  <option key={option} value={option}>
                    {t(`admin:signups.${option}`)}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
          {number('min_age', t('admin:site.minAge'), 18)}
          {number('refund_days', t('admin:site.refundDays'), 14)}
          {number('niche', t('admin:site.niche'), 1)}
          <div className="mb-3">
            <AdminCheckbox
              name="logged_out_search"
              label={t('admin:site.loggedOutSearch')}
              defaultChecked={site?.logged_out_search ?? false}
            />
            <AdminCheckbox
              name="logged_out_search_trafficsource"
              label={t('admin:site.loggedOutSearchTrafficsource')}
              defaultChecked={site?.logged_out_search_trafficsource ?? false}
            />
            <AdminCheckbox
              name="member_resell"
              label={t('admin:site.memberResell')}
              defaultChecked={site?.member_resell ?? false}
            />
            <AdminCheckbox
              name="enable_site_entry_popup"
              label={t('admin:site.enableSiteEntryPopup')}
              defaultChecked={site?.enable_site_entry_popup ?? true}
            />
            <AdminCheckbox
              name="us_footer"
              label={t('admin:site.usFooter')}
              defaultChecked={site?.us_footer ?? false}
            />
          </div>
        </Section>
        <Section title={t('admin:site.sectionSafety')}>
          {field('screening_explicit', t('admin:site.screeningExplicit'), {
            type: 'number',
            inputMode: 'decimal',
            step: '0.01',
            hint: t('admin:site.screeningExplicitHint'),
            defaultValue: site?.screening_explicit ?? 0.4,
          })}
          <div className="mb-3">
            <AdminCheckbox
              name="screening_face_required"
              label={t('admin:site.screeningFaceRequired')}
              defaultChecked={site?.screening_face_required ?? true}
            />
          </div>
          {field('strike_suspend_at', t('admin:site.strikeSuspendAt'), {
            type: 'number',
            inputMode: 'numeric',
            hint: t('admin:site.strikeSuspendAtHint'),
            defaultValue: site?.strike_suspend_at ?? 3,
          })}
          {number('strike_suspension_days', t('admin:site.strikeSuspensionDays'), 7)}
        </Section>
        <StaffingHours site={site} errors={errors} locale={locale} />
        <Section title={t('admin:site.sectionProfiles')}>
          {checks('visible_profile_fields', siteProfileFieldOptions, [...siteProfileFieldOptions])}
          {checks('visible_profile_notes', siteProfileNoteOptions, ['about'])}
          {checks('search_fields', siteSearchFieldOptions, [...siteSearchFieldOptions])}
        </Section>
        <Section title={t('admin:site.sectionSupport')}>
          {field('support_email', t('admin:site.supportEmail'), { type: 'email', required: true })}
          {field('support_phone', t('admin:site.supportPhone'), { type: 'tel' })}
          {field('mail_from_name', t('admin:site.mailFromName'))}
          {field('mail_from_address', t('admin:site.mailFromAddress'), { type: 'email' })}
        </Section>
        <Section title={t('admin:site.sectionBranding')}>
          {field('theme_color', t('admin:site.themeColor'), {
            type: 'color',
            defaultValue: site?.theme_color ?? '#c2185b',
          })}
          {field('logo_url', t('admin:site.logoUrl'), { type: 'url' })}
          {field('cdn_prefix', t('admin:site.cdnPrefix'), {
            type: 'url',
            hint: t('admin:site.cdnPrefixHint'),
          })}
          {site && <LogoUpload site={site} />}
        </Section>
        <fieldset className="card mb-3">
          <div className="card-body">
            <legend className="h6 card-title">{t('admin:site.sectionPostbacks')}</legend>
            <AdminField
              name="postbacks"
              label={t('admin:site.postbacks')}
              errors={errors}
              hint={t('admin:site.postbacksHint', {
                click_id: '{click_id}',
                event: '{event}',
                amount: '{amount}',
                currency: '{currency}',
              })}
            >
              {({ id, invalid, describedBy }) => (
                <textarea
                  id={id}
                  name="postbacks"
                  rows={3}
                  spellCheck={false}
                  className={`form-control font-monospace small${invalid ? ' is-invalid' : ''}`}
                  aria-describedby={describedBy}
                  placeholder="adnet https://adnet.example/postback?clickid={click_id}&event={event}&amount={amount}&currency={currency} signup,first_purchase"
                  defaultValue={(site?.postbacks ?? [])
                    .map((entry) => `${entry.network} ${entry.url} ${entry.events.join(',')}`)
                    .join('\n')}
                />
              )}
            </AdminField>
          </div>
        </fieldset>
        <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
          {site ? t('admin:editor.save') : t('admin:sites.create')}
        </button>
      </Form>
    </div>
  );
}
