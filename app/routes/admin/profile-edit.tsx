import { useRef, useState } from 'react';
import { Form, Link, redirect, useFetcher, useNavigation, useRevalidator } from 'react-router';
import { formError, formText } from '#app/lib/actions.server.ts';
import { api as memberApi, serverApi } from '#app/lib/api.ts';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminFictionalProfile } from '#contract/admin-sites.ts';
import { errorBodySchema } from '#contract/common.ts';
import type { Region } from '#contract/endpoints/regions.ts';
import {
  bodyTypeOptions,
  eyeColourOptions,
  genderOptions,
  hairOptions,
  interestOptions,
  relationshipStatusOptions,
  sexualityOptions,
  tattooOptions,
} from '#contract/profiles.ts';
import type { Route } from './+types/profile-edit';
import { AdminCheckbox, AdminField, AdminInput, defined, text, whole } from './backoffice-form.tsx';

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const sites = await api('GET /api/admin/profile-sites.php');
  if (!sites.ok) throw new Response(null, { status: sites.status });
  let profile: AdminFictionalProfile | null = null;
  if (params.id !== 'new') {
    const found = await api('GET /api/admin/profile.php', { query: { id: Number(params.id) || 0 } });
    if (!found.ok) throw new Response(null, { status: found.status });
    profile = found.data.profile;
  }
  const country = profile?.country ?? sites.data.sites[0]?.countries[0] ?? 'NL';
  const regions = await serverApi(context.api)('GET /api/regions.php', { query: { country } });
  return {
    profile,
    sites: sites.data.sites,
    regions: regions.ok ? regions.data.regions : [],
    savedNow: new URL(request.url).searchParams.has('saved'),
  };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const api = staffApi(context.api);
  const form = await request.formData();
  if (formText(form, 'intent') === 'removePhoto') {
    const removed = await api('DELETE /api/admin/profile-photo.php', {
      body: { profile: Number(params.id), photo: Number(formText(form, 'photo')) },
    });
    return removed.ok ? { removedPhoto: true as const } : formError(removed);
  }
  const optional = (name: string) => {
    const value = text(form, name);
    return value === undefined ? undefined : value || null;
  };
  const body = defined({
    site: whole(form, 'site'),
    name: text(form, 'name'),
    gender: text(form, 'gender'),
    seeking: text(form, 'seeking'),
    sexuality: text(form, 'sexuality'),
    date_of_birth: text(form, 'date_of_birth'),
    country: text(form, 'country')?.trim().toUpperCase(),
    countryregion: optional('countryregion'),
    body_type: optional('body_type'),
    hair: optional('hair'),
    eye_colour: optional('eye_colour'),
    relationship_status: optional('relationship_status'),
    tattoos: optional('tattoos'),
    interests: form.getAll('interests').map(String),
    about: optional('about'),
    status: text(form, 'status'),
  });
  const creating = params.id === 'new';
  const result = creating
    ? await api('POST /api/admin/profiles.php', { body })
    : await api('PUT /api/admin/profiles.php', { body: { ...body, id: Number(params.id) } });
  if (!result.ok) return formError(result);
  throw redirect(`/admin/profiles/${result.data.profile.id}?saved=1`);
}

function OptionSelect({
  name,
  label,
  options,
  labelOf,
  value,
  errors,
  allowNone,
}: {
  name: string;
  label: string;
  options: readonly string[];
  labelOf: (option: string) => string;
  value: string | null | undefined;
  errors: FormErrors | undefined;
  allowNone?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <AdminField name={name} label={label} errors={errors}>
      {({ id, invalid }) => (
        <select
          id={id}
          name={name}
          className={`form-select${invalid ? ' is-invalid' : ''}`}
          defaultValue={value ?? ''}
        >
          {allowNone && <option value="">{t('profile:notSaid')}</option>}
          {options.map((option) => (
            <option key={option} value={option}>
              {labelOf(option)}
            </option>
          ))}
        </select>
      )}
    </AdminField>
  );
}

/** The profile's photos: upload (free main photo or premium), remove. */
function Photos({ profile }: { profile: AdminFictionalProfile }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const removal = useFetcher<typeof action>();
  const removalError =
    removal.data && 'errors' in removal.data ? (removal.data.errors?.body.message ?? null) : null;
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setPremium] = useState<boolean | null>(null);
  // Premium by default once the profile has its free main photo.
  const premium = chosen ?? profile.photos.length > 0;
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const run = async (work: () => Promise<Response>) => {
    setState({ busy: true, error: null });
    const response = await work();
    if (!response.ok) {
      const answer: unknown = await response.json().catch(() => {
        // expected: an error answer without a JSON body shows the generic message.
        return null;
      });
      const body = errorBodySchema.safeParse(answer);
      setState({ busy: false, error: (body.success && body.data.message) || t('errors:internal_error') });
      return;
    }
    setState({ busy: false, error: null });
    if (input.current) input.current.value = '';
    await revalidator.revalidate();
  };
  const upload = (file: File) =>
    run(() => {
      const body = new FormData();
      body.append('premium', premium ? '1' : '0');
      body.append('file', file);
      return fetch(`/api/admin/photos.php?profile=${profile.id}`, {
        method: 'POST',
        body,
        credentials: 'same-origin',
      });
    });
  // Through the page's action (the typed staff client); the page's data is read again after it.
  const remove = (photo: number) =>
    removal.submit({ intent: 'removePhoto', photo: String(photo) }, { method: 'post' });
  const busy = state.busy || removal.state !== 'idle';
  const error = state.error ?? removalError;
  return (
    <section className="card mb-3">
      <div className="card-body">
        <h2 className="h6 card-title">{t('profile:photos.heading')}</h2>
        {error && (
          <div className="alert alert-danger" role="alert">
            {error}
          </div>
        )}
        <ul className="row row-cols-3 row-cols-md-4 g-2 list-unstyled">
          {profile.photos.map((photo) => (
            <li key={photo.id} className="col">
              <div className="card h-100">
                <img
                  src={photo.thumb_filename}
                  alt=""
                  className="card-img-top object-fit-cover"
                  style={{ aspectRatio: '1' }}
                  width={240}
                  height={240}
                />
                <div className="card-body p-1 d-flex flex-column gap-1">
                  <span className={`badge ${photo.premium ? 'text-bg-warning' : 'text-bg-success'}`}>
                    {photo.premium ? t('admin:profilePhotos.premium') : t('admin:profilePhotos.free')}
                  </span>
                  {photo.screening && !photo.screening.error && (
                    // Shown for staff's own photos too, though it never holds them.
                    <span className="small text-body-secondary" data-testid="photo-screening">
                      {t('admin:photos.faces', { count: photo.screening.faces })}
                      {photo.screening.min_age_estimate !== null &&
                        ` · ${t('admin:photos.minAge', { age: photo.screening.min_age_estimate.toFixed(1) })}`}
                      {' · '}
                      {Object.entries(photo.screening.nudity)
                        .sort(([, a], [, b]) => b - a)
                        .slice(0, 2)
                        .map(([label, score]) => `${label} ${score.toFixed(2)}`)
                        .join(', ')}
                    </span>
                  )}
                  <button
                    type="button"
                    className="btn btn-outline-danger btn-sm"
                    disabled={busy}
                    onClick={() => void remove(photo.id)}
                  >
                    {t('profile:photos.delete')}
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
        <div className="form-check mb-2">
          <input
            id="photo-premium"
            type="checkbox"
            className="form-check-input"
            checked={premium}
            disabled={profile.photos.length === 0}
            onChange={(event) => setPremium(event.currentTarget.checked)}
          />
          <label htmlFor="photo-premium" className="form-check-label">
            {t('admin:profilePhotos.asPremium')}
          </label>
        </div>
        <label htmlFor="photo-file" className="form-label">
          {t('profile:photos.add')}
        </label>
        <input
          id="photo-file"
          ref={input}
          type="file"
          accept="image/*"
          className="form-control"
          disabled={busy}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) void upload(file);
          }}
        />
        <div className="form-text">{t('admin:profilePhotos.hint')}</div>
      </div>
    </section>
  );
}

/** A fictional profile's editor (moderators, admins): every attribute, photos, numbers. */
export default function ProfileEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { profile, sites, savedNow } = loaderData;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const [regions, setRegions] = useState<Region[]>(loaderData.regions);
  const loadRegions = async (country: string) => {
    if (!/^[A-Z]{2}$/.test(country)) return setRegions([]);
    const answer = await memberApi('GET /api/regions.php', { query: { country } });
    setRegions(answer.ok ? answer.data.regions : []);
  };
  const select = (
    name: string,
    label: string,
    options: readonly string[],
    prefix: string,
    value: string | null | undefined,
    allowNone = true,
  ) => (
    <OptionSelect
      name={name}
      label={label}
      options={options}
      labelOf={(option) => t(`profile:${prefix}.${option}`)}
      value={value}
      errors={errors}
      allowNone={allowNone}
    />
  );
  return (
    <div style={{ maxWidth: 1100 }}>
      <nav className="mb-2">
        <Link to="/admin/profiles">{t('admin:profiles.back')}</Link>
      </nav>
      <h1 className="h4">
        {profile ? t('admin:profiles.editHeading', { name: profile.name }) : t('admin:profiles.new')}
      </h1>
      {savedNow && !errors && (
        <div className="alert alert-success" role="status">
          {t('admin:profiles.saved')}
        </div>
      )}
      {errors && (
        <div className="alert alert-danger" role="alert">
          {errors.body.fields ? t('admin:editor.fixErrors') : errors.body.message}
        </div>
      )}
      <div className="row g-3">
        <div className="col-12 col-lg-7">
          <Form method="post" noValidate key={profile?.id ?? 'new'}>
            <div className="row row-cols-1 row-cols-sm-2 gx-3">
              <AdminInput
                name="name"
                label={t('profile:field.name')}
                errors={errors}
                defaultValue={profile?.name}
                required
              />
              <AdminField name="site" label={t('admin:fictional.site')} errors={errors}>
                {({ id, invalid }) => (
                  <select
                    id={id}
                    name="site"
                    className={`form-select${invalid ? ' is-invalid' : ''}`}
                    defaultValue={profile?.site.id ?? sites[0]?.id}
                  >
                    {sites.map((site) => (
                      <option key={site.id} value={site.id}>
                        {site.name} ({site.countries.join(', ')})
                      </option>
                    ))}
                  </select>
                )}
              </AdminField>
              {select(
                'gender',
                t('profile:field.gender'),
                genderOptions,
                'gender',
                profile?.gender ?? 'female',
                false,
              )}
              {select(
                'seeking',
                t('profile:field.seeking'),
                ['male', 'female', 'both'],
                'seeking',
                profile?.seeking ?? 'male',
                false,
              )}
              {select(
                'sexuality',
                t('profile:field.sexuality'),
                sexualityOptions,
                'sexuality',
                profile?.sexuality ?? 'hetero',
                false,
              )}
              <AdminInput
                name="date_of_birth"
                type="date"
                label={t('admin:fictional.dateOfBirth')}
                errors={errors}
                defaultValue={profile?.birthdate}
                required
              />
              <AdminField
                name="country"
                label={t('profile:field.country')}
                errors={errors}
                hint={t('admin:fictional.countryHint')}
              >
                {({ id, invalid, describedBy }) => (
                  <input
                    id={id}
                    name="country"
                    maxLength={2}
                    className={`form-control${invalid ? ' is-invalid' : ''}`}
                    aria-describedby={describedBy}
                    defaultValue={profile?.country ?? sites[0]?.countries[0] ?? ''}
                    onChange={(event) => void loadRegions(event.currentTarget.value.trim().toUpperCase())}
                  />
                )}
              </AdminField>
              <AdminField name="countryregion" label={t('profile:field.region')} errors={errors}>
                {({ id, invalid }) => (
                  <select
                    id={id}
                    name="countryregion"
                    className={`form-select${invalid ? ' is-invalid' : ''}`}
                    defaultValue={profile?.countryregion ?? ''}
                  >
                    <option value="">{t('profile:notSaid')}</option>
                    {regions.map((region) => (
                      <option key={region.code} value={region.code}>
                        {region.name}
                      </option>
                    ))}
                  </select>
                )}
              </AdminField>
              {select(
                'body_type',
                t('profile:field.bodyType'),
                bodyTypeOptions,
                'bodyType',
                profile?.body_type,
              )}
              {select('hair', t('profile:field.hair'), hairOptions, 'hair', profile?.hair)}
              {select(
                'eye_colour',
                t('profile:field.eyeColour'),
                eyeColourOptions,
                'eyeColour',
                profile?.eye_colour,
              )}
              {select(
                'relationship_status',
                t('profile:field.relationshipStatus'),
                relationshipStatusOptions,
                'relationshipStatus',
                profile?.relationship_status,
              )}
              {select('tattoos', t('profile:field.tattoos'), tattooOptions, 'tattoos', profile?.tattoos)}
              <OptionSelect
                name="status"
                label={t('admin:fictional.status')}
                options={['active', 'disabled']}
                labelOf={(option) => t(`admin:profileStatus.${option}`)}
                value={profile?.status ?? 'active'}
                errors={errors}
              />
            </div>
            <AdminField name="interests" label={t('profile:field.interests')} errors={errors}>
              {() => (
                <div className="d-flex flex-wrap column-gap-3">
                  {interestOptions.map((interest) => (
                    <AdminCheckbox
                      key={interest}
                      name="interests"
                      value={interest}
                      label={t(`profile:interest.${interest}`)}
                      defaultChecked={profile?.interests.includes(interest) ?? false}
                    />
                  ))}
                </div>
              )}
            </AdminField>
            <AdminField name="about" label={t('profile:field.about')} errors={errors}>
              {({ id, invalid }) => (
                <textarea
                  id={id}
                  name="about"
                  rows={4}
                  className={`form-control${invalid ? ' is-invalid' : ''}`}
                  defaultValue={profile?.about ?? ''}
                />
              )}
            </AdminField>
            <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
              {profile ? t('admin:editor.save') : t('admin:profiles.create')}
            </button>
          </Form>
        </div>
        <div className="col-12 col-lg-5">
          {profile && (
            <>
              <section className="card mb-3">
                <div className="card-body">
                  <h2 className="h6 card-title">{t('admin:profileStats.profileHeading')}</h2>
                  <dl className="row mb-0 small">
                    <dt className="col-8">{t('admin:profileStats.conversations')}</dt>
                    <dd className="col-4 text-end" data-testid="stat-conversations">
                      {profile.stats.conversations}
                    </dd>
                    <dt className="col-8">{t('admin:profileStats.received')}</dt>
                    <dd className="col-4 text-end">{profile.stats.messages_received}</dd>
                    <dt className="col-8">{t('admin:profileStats.replies')}</dt>
                    <dd className="col-4 text-end">{profile.stats.replies}</dd>
                    <dt className="col-8">{t('admin:profileStats.revenue')}</dt>
                    <dd className="col-4 text-end">{profile.stats.revenue_credits}</dd>
                  </dl>
                </div>
              </section>
              <Photos profile={profile} />
            </>
          )}
        </div>
      </div>
    </div>
  );
}
