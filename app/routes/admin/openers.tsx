import { useId, useState } from 'react';
import { Form, redirect } from 'react-router';
import { formError } from '#app/lib/actions.server.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import type { StaffBodyOf } from '#app/lib/staff-api.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminSite } from '#contract/admin-sites.ts';
import { maxOpenerSteps, type OpenerScript } from '#contract/engagement.ts';
import { isLocale, localeNames, locales } from '#contract/locales.ts';
import type { Route } from './+types/openers';
import { AdminCheckbox, AdminField, errorAt, text, useFieldErrorText } from './backoffice-form.tsx';
import { actionErrors } from './crud-editor.tsx';
import { AdminCrudPage } from './crud-page.tsx';
import { variableNames } from './engagement-variables.ts';

const stepKinds = ['like', 'visit', 'message'] as const;
type StepKind = (typeof stepKinds)[number];
type StepDraft = { after_minutes: number; kind: StepKind; text: string };

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const [scripts, sites] = await Promise.all([
    api('GET /api/admin/openers.php'),
    context.api<{ sites: AdminSite[] }>('/api/admin/sites.php'),
  ]);
  if (!scripts.ok) throw new Response(null, { status: scripts.status });
  const url = new URL(request.url);
  const edit = Number(url.searchParams.get('edit')) || null;
  return {
    items: scripts.data.scripts,
    edit: scripts.data.scripts.find((script) => script.id === edit) ?? null,
    sites: sites.ok ? sites.data.sites.map((site) => ({ id: site.id, name: site.name })) : [],
    created: url.searchParams.get('saved') === '1',
  };
}

/** A form's number: NaN (sent as null, answered "required") when the field holds none. */
const numberOf = (form: FormData, name: string) => {
  const value = text(form, name)?.trim() ?? '';
  return /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
};
const kindOf = (value: string | undefined): StepKind => stepKinds.find((kind) => kind === value) ?? 'like';
const languageOf = (value: string | undefined) => locales.find((locale) => locale === value) ?? 'en';

function scriptBody(form: FormData): StaffBodyOf<'POST /api/admin/openers.php'> {
  const count = Math.min(numberOf(form, 'steps') || 0, maxOpenerSteps);
  return {
    site: numberOf(form, 'site'),
    language: languageOf(text(form, 'language')),
    active: form.has('active'),
    profiles: { same_country: form.has('same_country'), matches_seeking: form.has('matches_seeking') },
    steps: Array.from({ length: count }, (_, index) => {
      const kind = kindOf(text(form, `steps.${index}.kind`));
      return {
        after_minutes: numberOf(form, `steps.${index}.after_minutes`),
        kind,
        text: kind === 'message' ? (text(form, `steps.${index}.text`) ?? '') : null,
      };
    }),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const api = staffApi(context.api);
  const form = await request.formData();
  const id = numberOf(form, 'id');
  if (text(form, 'intent') === 'toggle') {
    const list = await api('GET /api/admin/openers.php');
    const script = list.ok ? list.data.scripts.find((row) => row.id === id) : undefined;
    if (!script) throw new Response(null, { status: 404 });
    const toggled = await api('PUT /api/admin/openers.php', {
      body: {
        id: script.id,
        site: script.site,
        language: languageOf(script.language),
        active: !script.active,
        steps: script.steps,
        profiles: script.profiles,
      },
    });
    return toggled.ok ? { toggled: script.id } : formError(toggled);
  }
  const body = scriptBody(form);
  if (Number.isNaN(id)) {
    const created = await api('POST /api/admin/openers.php', { body });
    if (!created.ok) return formError(created);
    throw redirect(`/admin/openers?edit=${created.data.script.id}&saved=1`);
  }
  const saved = await api('PUT /api/admin/openers.php', { body: { ...body, id } });
  return saved.ok ? { saved: saved.data.script.id } : formError(saved);
}

/** The steps of the script being edited: added, removed and reordered here, posted as `steps.N.*`. */
function StepsEditor({ initial, errors }: { initial: StepDraft[]; errors: ReturnType<typeof actionErrors> }) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const [steps, setSteps] = useState<StepDraft[]>(initial);
  const headingId = useId();
  const change = (index: number, patch: Partial<StepDraft>) =>
    setSteps((all) => all.map((step, at) => (at === index ? { ...step, ...patch } : step)));
  const listError = errorAt(errors, 'steps');
  return (
    <fieldset className="mb-3" aria-labelledby={headingId}>
      <legend id={headingId} className="h6">
        {t('engagement:openers.steps')}
      </legend>
      <p className="small text-body-secondary">
        {t('engagement:openers.stepsHint')} {t('engagement:variables', variableNames)}
      </p>
      <input type="hidden" name="steps" value={steps.length} />
      <ol className="list-unstyled">
        {steps.map((step, index) => (
          // The steps have no ids of their own: their place is what they are.
          // biome-ignore lint/suspicious/noArrayIndexKey: a step is its position in the script
          <li key={index} className="border rounded p-2 mb-2" data-testid="opener-step">
            <div className="row g-2 align-items-end">
              <div className="col-5 col-sm-3">
                <AdminField
                  name={`steps.${index}.after_minutes`}
                  label={t('engagement:openers.afterMinutes', { index: index + 1 })}
                  errors={errors}
                >
                  {({ id, invalid, describedBy }) => (
                    <input
                      id={id}
                      name={`steps.${index}.after_minutes`}
                      type="number"
                      min={0}
                      inputMode="numeric"
                      value={Number.isNaN(step.after_minutes) ? '' : step.after_minutes}
                      onChange={(event) => change(index, { after_minutes: Number(event.target.value) })}
                      className={`form-control${invalid ? ' is-invalid' : ''}`}
                      aria-invalid={invalid || undefined}
                      aria-describedby={describedBy}
                    />
                  )}
                </AdminField>
              </div>
              <div className="col-7 col-sm-5">
                <AdminField name={`steps.${index}.kind`} label={t('engagement:openers.kind')} errors={errors}>
                  {({ id }) => (
                    <select
                      id={id}
                      name={`steps.${index}.kind`}
                      className="form-select"
                      value={step.kind}
                      onChange={(event) => change(index, { kind: kindOf(event.target.value) })}
                    >
                      {stepKinds.map((kind) => (
                        <option key={kind} value={kind}>
                          {t(`engagement:kind.${kind}`)}
                        </option>
                      ))}
                    </select>
                  )}
                </AdminField>
              </div>
              <div className="col-12 col-sm-4 mb-3 text-sm-end">
                <button
                  type="button"
                  className="btn btn-outline-danger btn-sm text-nowrap"
                  onClick={() => setSteps((all) => all.filter((_, at) => at !== index))}
                  disabled={steps.length === 1}
                >
                  {t('engagement:openers.removeStep', { index: index + 1 })}
                </button>
              </div>
            </div>
            {step.kind === 'message' && (
              <AdminField name={`steps.${index}.text`} label={t('engagement:openers.text')} errors={errors}>
                {({ id, invalid, describedBy }) => (
                  <textarea
                    id={id}
                    name={`steps.${index}.text`}
                    rows={3}
                    value={step.text}
                    onChange={(event) => change(index, { text: event.target.value })}
                    className={`form-control${invalid ? ' is-invalid' : ''}`}
                    aria-invalid={invalid || undefined}
                    aria-describedby={describedBy}
                  />
                )}
              </AdminField>
            )}
          </li>
        ))}
      </ol>
      {listError && (
        <div className="invalid-feedback d-block" data-field-error="steps">
          {errorText(listError)}
        </div>
      )}
      <button
        type="button"
        className="btn btn-outline-secondary btn-sm"
        disabled={steps.length >= maxOpenerSteps}
        onClick={() =>
          setSteps((all) => [
            ...all,
            { after_minutes: (all.at(-1)?.after_minutes ?? 0) + 60, kind: 'message', text: '' },
          ])
        }
      >
        {t('engagement:openers.addStep')}
      </button>
    </fieldset>
  );
}

const draftsOf = (script: OpenerScript | null): StepDraft[] =>
  script
    ? script.steps.map((step) => ({
        after_minutes: step.after_minutes,
        kind: step.kind,
        text: step.text ?? '',
      }))
    : [
        { after_minutes: 0, kind: 'like', text: '' },
        { after_minutes: 5, kind: 'visit', text: '' },
        { after_minutes: 30, kind: 'message', text: '' },
      ];

/** Opener scripts (admins): what fictional profiles do for a new member, step by step, and what came of it. */
export default function Openers({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const { items, edit, sites } = loaderData;
  const errors = actionErrors(actionData);
  const saved = (actionData && 'saved' in actionData) || loaderData.created;
  const siteName = (id: number) => sites.find((site) => site.id === id)?.name ?? `#${id}`;
  const percent = (part: number, whole: number) =>
    whole === 0 ? '–' : new Intl.NumberFormat(locale, { style: 'percent' }).format(part / whole);
  return (
    <AdminCrudPage
      path="/admin/openers"
      heading={t('engagement:openers.heading')}
      lead={t('engagement:openers.lead')}
      items={items}
      empty={t('engagement:openers.empty')}
      rowClassName={(script) => (script.active ? undefined : 'text-body-secondary')}
      rowTestId={(script) => `opener-${script.id}`}
      columns={[
        {
          header: t('engagement:openers.script'),
          cell: (script) => (
            <>
              {siteName(script.site)} ·{' '}
              {isLocale(script.language) ? localeNames[script.language] : script.language}
              <div className="small text-body-secondary">
                {t('engagement:openers.stepCount', { count: script.steps.length })}
              </div>
            </>
          ),
        },
        {
          header: t('engagement:results.sent'),
          cell: (script) => script.results.sent,
        },
        {
          header: t('engagement:results.replied'),
          cell: (script) => (
            <>
              {script.results.replied}{' '}
              <span className="small text-body-secondary">
                ({percent(script.results.replied, script.results.sent)})
              </span>
            </>
          ),
        },
        {
          header: t('engagement:results.paid'),
          cell: (script) => (
            <>
              {script.results.paid_within_7d}{' '}
              <span className="small text-body-secondary">
                ({percent(script.results.paid_within_7d, script.results.sent)})
              </span>
            </>
          ),
        },
        {
          header: t('engagement:openers.state'),
          cell: (script) =>
            script.active ? (
              <span className="badge text-bg-success">{t('engagement:openers.on')}</span>
            ) : (
              <span className="badge text-bg-secondary">{t('engagement:openers.off')}</span>
            ),
        },
      ]}
      rowActions={(script) => (
        <Form method="post" className="d-inline">
          <input type="hidden" name="intent" value="toggle" />
          <input type="hidden" name="id" value={script.id} />
          <button type="submit" className="btn btn-link btn-sm p-0 ms-2">
            {script.active ? t('engagement:openers.switchOff') : t('engagement:openers.switchOn')}
          </button>
        </Form>
      )}
      editor={{
        edit,
        addLabel: t('engagement:openers.add'),
        editHeading: edit ? t('engagement:openers.editHeading', { site: siteName(edit.site) }) : '',
        saved: saved ? t('engagement:saved') : null,
        errors,
      }}
    >
      <div className="row g-2">
        <div className="col-6">
          <AdminField name="site" label={t('engagement:site')} errors={errors}>
            {({ id, invalid }) => (
              <select
                id={id}
                name="site"
                className={`form-select${invalid ? ' is-invalid' : ''}`}
                defaultValue={edit?.site ?? sites[0]?.id}
              >
                {sites.map((site) => (
                  <option key={site.id} value={site.id}>
                    {site.name}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
        </div>
        <div className="col-6">
          <AdminField name="language" label={t('engagement:openers.language')} errors={errors}>
            {({ id }) => (
              <select id={id} name="language" className="form-select" defaultValue={edit?.language ?? 'en'}>
                {locales.map((language) => (
                  <option key={language} value={language}>
                    {localeNames[language]}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
        </div>
      </div>
      <StepsEditor initial={draftsOf(edit)} errors={errors} />
      <fieldset className="mb-3">
        <legend className="h6">{t('engagement:openers.profiles')}</legend>
        <AdminCheckbox
          name="same_country"
          label={t('engagement:openers.sameCountry')}
          defaultChecked={edit?.profiles.same_country ?? true}
        />
        <AdminCheckbox
          name="matches_seeking"
          label={t('engagement:openers.matchesSeeking')}
          defaultChecked={edit?.profiles.matches_seeking ?? true}
        />
      </fieldset>
      <div className="mb-3">
        <AdminCheckbox
          name="active"
          label={t('engagement:openers.active')}
          defaultChecked={edit?.active ?? false}
        />
      </div>
    </AdminCrudPage>
  );
}
