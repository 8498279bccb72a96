import { useEffect, useId, useState } from 'react';
import { Form, useNavigation, useRevalidator } from 'react-router';
import { formError } from '#app/lib/actions.server.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { type StaffBodyOf, staffBrowserApi } from '#app/lib/staff-api.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminFictionalProfileSummary, AdminSite } from '#contract/admin-sites.ts';
import type { Campaign } from '#contract/engagement.ts';
import type { Route } from './+types/mass-messages';
import { AdminField, errorAt, text, useFieldErrorText } from './backoffice-form.tsx';
import { actionErrors } from './crud-editor.tsx';
import { variableNames } from './engagement-variables.ts';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  const [campaigns, sites, profiles] = await Promise.all([
    staffApi(context.api)('GET /api/admin/mass-messages.php'),
    context.api<{ sites: AdminSite[] }>('/api/admin/sites.php'),
    context.api<{ profiles: AdminFictionalProfileSummary[] }>('/api/admin/profiles.php'),
  ]);
  if (!campaigns.ok) throw new Response(null, { status: campaigns.status });
  return {
    campaigns: campaigns.data.campaigns,
    sites: sites.ok ? sites.data.sites.map((site) => ({ id: site.id, name: site.name })) : [],
    profiles: profiles.ok
      ? profiles.data.profiles.map((profile) => ({
          id: profile.id,
          name: profile.name,
          site: profile.site.id,
        }))
      : [],
  };
}

type Draft = {
  site: string;
  profile: string;
  text: string;
  country: string;
  gender: string;
  min_age: string;
  max_age: string;
  paid_user: string;
  signed_up_after: string;
  active_after: string;
  has_photo: string;
};

/** A whole number of a field, NaN (sent as null, answered "required" or "invalid") when it is none. */
const numberOf = (value: string) => (/^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN);
const optionalNumber = (value: string) => (value.trim() === '' ? undefined : numberOf(value));
const yesNo = (value: string) => (value === 'yes' ? true : value === 'no' ? false : undefined);
const genderOf = (value: string) => (value === 'male' || value === 'female' ? value : undefined);

/** The call's body from the form's values (the same for the preview and the send). */
function bodyOf(draft: Draft, preview: boolean): StaffBodyOf<'POST /api/admin/mass-messages.php'> {
  return {
    profile: numberOf(draft.profile),
    text: draft.text,
    preview,
    segment: {
      site: numberOf(draft.site),
      country: draft.country.trim() ? draft.country.trim().toUpperCase() : undefined,
      gender: genderOf(draft.gender),
      min_age: optionalNumber(draft.min_age),
      max_age: optionalNumber(draft.max_age),
      paid_user: yesNo(draft.paid_user),
      signed_up_after: draft.signed_up_after || undefined,
      active_after: draft.active_after || undefined,
      has_photo: yesNo(draft.has_photo),
    },
  };
}

function draftOf(form: FormData): Draft {
  return {
    site: text(form, 'site') ?? '',
    profile: text(form, 'profile') ?? '',
    text: text(form, 'text') ?? '',
    country: text(form, 'country') ?? '',
    gender: text(form, 'gender') ?? '',
    min_age: text(form, 'min_age') ?? '',
    max_age: text(form, 'max_age') ?? '',
    paid_user: text(form, 'paid_user') ?? '',
    signed_up_after: text(form, 'signed_up_after') ?? '',
    active_after: text(form, 'active_after') ?? '',
    has_photo: text(form, 'has_photo') ?? '',
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const sent = await staffApi(context.api)('POST /api/admin/mass-messages.php', {
    body: bodyOf(draftOf(await request.formData()), false),
  });
  if (!sent.ok) return formError(sent);
  return 'campaign' in sent.data ? { queued: sent.data.campaign.id } : { queued: null };
}

/** How many members the segment holds, asked again a moment after each change of the form. */
function usePreviewCount(draft: Draft) {
  const [count, setCount] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      const answer = await staffBrowserApi('POST /api/admin/mass-messages.php', {
        body: bodyOf({ ...draft, text: draft.text.trim() || '…' }, true),
        signal: controller.signal,
      });
      if (controller.signal.aborted) return;
      setFailed(!answer.ok);
      setCount(answer.ok && 'count' in answer.data ? answer.data.count : null);
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [draft]);
  return { count, failed };
}

function Select({
  name,
  label,
  value,
  onChange,
  options,
  errors,
}: {
  name: keyof Draft;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  errors: ReturnType<typeof actionErrors>;
}) {
  return (
    <AdminField name={name} label={label} errors={errors}>
      {({ id, invalid, describedBy }) => (
        <select
          id={id}
          name={name}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className={`form-select${invalid ? ' is-invalid' : ''}`}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </AdminField>
  );
}

function Input({
  name,
  label,
  value,
  onChange,
  errors,
  type = 'text',
  hint,
}: {
  name: keyof Draft;
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors: ReturnType<typeof actionErrors>;
  type?: string;
  hint?: string;
}) {
  const fieldName = name === 'site' || name === 'profile' || name === 'text' ? name : `segment.${name}`;
  return (
    <AdminField name={fieldName} label={label} errors={errors} hint={hint}>
      {({ id, invalid, describedBy }) => (
        <input
          id={id}
          name={name}
          type={type}
          value={value}
          inputMode={type === 'number' ? 'numeric' : undefined}
          onChange={(event) => onChange(event.target.value)}
          className={`form-control${invalid ? ' is-invalid' : ''}`}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
        />
      )}
    </AdminField>
  );
}

function CampaignRow({ campaign, siteName }: { campaign: Campaign; siteName: string }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const done = campaign.sent + campaign.skipped;
  const share = campaign.count === 0 ? 100 : Math.round((done / campaign.count) * 100);
  const badge =
    campaign.status === 'done'
      ? 'text-bg-success'
      : campaign.status === 'sending'
        ? 'text-bg-primary'
        : 'text-bg-secondary';
  return (
    <tr data-testid={`campaign-${campaign.id}`}>
      <td>
        <div className="fw-semibold">{campaign.profile.name}</div>
        <div className="small text-body-secondary">
          {siteName} ·{' '}
          {new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(
            new Date(campaign.created_at),
          )}
        </div>
        <div className="small text-truncate" style={{ maxWidth: '18rem' }}>
          {campaign.text}
        </div>
      </td>
      <td>
        <span className={`badge ${badge}`}>{t(`engagement:status.${campaign.status}`)}</span>
      </td>
      <td style={{ minWidth: '9rem' }}>
        <div
          className="progress"
          role="progressbar"
          aria-label={t('engagement:mass.progress')}
          aria-valuenow={share}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="progress-bar" style={{ width: `${share}%` }} />
        </div>
        <div className="small text-body-secondary">
          {t('engagement:mass.progressOf', { done, total: campaign.count })}
        </div>
      </td>
      <td>{campaign.sent}</td>
      <td>{campaign.skipped}</td>
      <td>{campaign.replied}</td>
    </tr>
  );
}

/** Mass messages (admins): one text from one fictional profile to a segment, counted first, then sent by jobs. */
export default function MassMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { campaigns, sites, profiles } = loaderData;
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const errors = actionErrors(actionData);
  const errorText = useFieldErrorText();
  const countId = useId();
  const [draft, setDraft] = useState<Draft>(() => ({
    site: String(sites[0]?.id ?? ''),
    profile: String(profiles[0]?.id ?? ''),
    text: '',
    country: '',
    gender: '',
    min_age: '',
    max_age: '',
    paid_user: '',
    signed_up_after: '',
    active_after: '',
    has_photo: '',
  }));
  const set = (field: keyof Draft) => (value: string) =>
    setDraft((before) => ({ ...before, [field]: value }));
  const preview = usePreviewCount(draft);
  const queued = actionData && 'queued' in actionData && !errors;
  // While a campaign is on its way, its progress is read again every few seconds.
  const running = campaigns.some((campaign) => campaign.status !== 'done');
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [running, revalidator]);
  const siteName = (id: number) => sites.find((site) => site.id === id)?.name ?? `#${id}`;
  const anyYesNo = [
    { value: '', label: t('engagement:mass.any') },
    { value: 'yes', label: t('engagement:mass.yes') },
    { value: 'no', label: t('engagement:mass.no') },
  ];
  const segmentError = errorAt(errors, 'segment');
  return (
    <div className="row g-3">
      <div className="col-12 col-xl-5">
        <h1 className="h4">{t('engagement:mass.heading')}</h1>
        <p className="text-body-secondary small">{t('engagement:mass.lead')}</p>
        {queued && (
          <div className="alert alert-success" role="status">
            {t('engagement:mass.queued')}
          </div>
        )}
        {errors && (
          <div className="alert alert-danger" role="alert">
            {errors.body.fields ? t('admin:editor.fixErrors') : errors.body.message}
          </div>
        )}
        <Form method="post" noValidate>
          <div className="row g-2">
            <div className="col-12 col-sm-6">
              <Select
                name="site"
                label={t('engagement:site')}
                value={draft.site}
                onChange={set('site')}
                options={sites.map((site) => ({ value: String(site.id), label: site.name }))}
                errors={errors}
              />
            </div>
            <div className="col-12 col-sm-6">
              <Select
                name="profile"
                label={t('engagement:mass.profile')}
                value={draft.profile}
                onChange={set('profile')}
                options={profiles.map((profile) => ({
                  value: String(profile.id),
                  label: `${profile.name} (${siteName(profile.site)})`,
                }))}
                errors={errors}
              />
            </div>
          </div>
          <AdminField
            name="text"
            label={t('engagement:mass.text')}
            errors={errors}
            hint={t('engagement:variables', variableNames)}
          >
            {({ id, invalid, describedBy }) => (
              <textarea
                id={id}
                name="text"
                rows={4}
                value={draft.text}
                onChange={(event) => set('text')(event.target.value)}
                className={`form-control${invalid ? ' is-invalid' : ''}`}
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
              />
            )}
          </AdminField>
          <fieldset>
            <legend className="h6">{t('engagement:mass.segment')}</legend>
            <div className="row g-2">
              <div className="col-6 col-sm-4">
                <Input
                  name="country"
                  label={t('engagement:mass.country')}
                  hint={t('engagement:mass.countryHint')}
                  value={draft.country}
                  onChange={set('country')}
                  errors={errors}
                />
              </div>
              <div className="col-6 col-sm-4">
                <Select
                  name="gender"
                  label={t('engagement:mass.gender')}
                  value={draft.gender}
                  onChange={set('gender')}
                  options={[
                    { value: '', label: t('engagement:mass.any') },
                    { value: 'female', label: t('engagement:mass.women') },
                    { value: 'male', label: t('engagement:mass.men') },
                  ]}
                  errors={errors}
                />
              </div>
              <div className="col-6 col-sm-2">
                <Input
                  name="min_age"
                  type="number"
                  label={t('engagement:mass.minAge')}
                  value={draft.min_age}
                  onChange={set('min_age')}
                  errors={errors}
                />
              </div>
              <div className="col-6 col-sm-2">
                <Input
                  name="max_age"
                  type="number"
                  label={t('engagement:mass.maxAge')}
                  value={draft.max_age}
                  onChange={set('max_age')}
                  errors={errors}
                />
              </div>
              <div className="col-6 col-sm-6">
                <Input
                  name="signed_up_after"
                  type="date"
                  label={t('engagement:mass.signedUpAfter')}
                  value={draft.signed_up_after}
                  onChange={set('signed_up_after')}
                  errors={errors}
                />
              </div>
              <div className="col-6 col-sm-6">
                <Input
                  name="active_after"
                  type="date"
                  label={t('engagement:mass.activeAfter')}
                  value={draft.active_after}
                  onChange={set('active_after')}
                  errors={errors}
                />
              </div>
              <div className="col-6">
                <Select
                  name="paid_user"
                  label={t('engagement:mass.paid')}
                  value={draft.paid_user}
                  onChange={set('paid_user')}
                  options={anyYesNo}
                  errors={errors}
                />
              </div>
              <div className="col-6">
                <Select
                  name="has_photo"
                  label={t('engagement:mass.hasPhoto')}
                  value={draft.has_photo}
                  onChange={set('has_photo')}
                  options={anyYesNo}
                  errors={errors}
                />
              </div>
            </div>
            {segmentError && (
              <div className="invalid-feedback d-block" data-field-error="segment">
                {errorText(segmentError)}
              </div>
            )}
          </fieldset>
          <div className="d-flex flex-wrap align-items-center gap-3 mt-2">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={navigation.state === 'submitting' || preview.count === 0}
              aria-describedby={countId}
            >
              {t('engagement:mass.send')}
            </button>
            <output id={countId} aria-live="polite" className="fw-semibold" data-testid="preview-count">
              {preview.count === null
                ? preview.failed
                  ? t('engagement:mass.previewUnavailable')
                  : t('engagement:mass.counting')
                : t('engagement:mass.recipients', { count: preview.count })}
            </output>
          </div>
          <p className="small text-body-secondary mt-2">{t('engagement:mass.skipNote')}</p>
        </Form>
      </div>
      <div className="col-12 col-xl-7">
        <h2 className="h5">{t('engagement:mass.campaigns')}</h2>
        <TableScroll label={t('engagement:mass.campaigns')}>
          <table className="table table-sm align-middle">
            <thead>
              <tr>
                <th scope="col">{t('engagement:mass.message')}</th>
                <th scope="col">{t('engagement:mass.status')}</th>
                <th scope="col">{t('engagement:mass.progress')}</th>
                <th scope="col">{t('engagement:results.sent')}</th>
                <th scope="col">{t('engagement:results.skipped')}</th>
                <th scope="col">{t('engagement:results.replied')}</th>
              </tr>
            </thead>
            <tbody>
              {campaigns.length === 0 && (
                <tr>
                  <td colSpan={6} className="text-body-secondary">
                    {t('engagement:mass.empty')}
                  </td>
                </tr>
              )}
              {campaigns.map((campaign) => (
                <CampaignRow key={campaign.id} campaign={campaign} siteName={siteName(campaign.site)} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
    </div>
  );
}
