import { Form, redirect } from 'react-router';
import { formError } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Template } from '#contract/admin.ts';
import { type Locale, localeNames, locales } from '#contract/locales.ts';
import type { Route } from './+types/templates';
import { AdminField, AdminInput, text, whole } from './backoffice-form.tsx';
import { actionErrors } from './crud-editor.tsx';
import { AdminCrudPage } from './crud-page.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const [templates, sites] = await Promise.all([
    api('GET /api/admin/templates.php'),
    context.api<{ sites: { id: number; name: string }[] }>('/api/admin/sites.php'),
  ]);
  if (!templates.ok) throw new Response(null, { status: templates.status });
  const url = new URL(request.url);
  const edit = Number(url.searchParams.get('edit')) || null;
  return {
    items: templates.data.templates,
    edit: templates.data.templates.find((item) => item.id === edit) ?? null,
    created: url.searchParams.get('saved') === '1',
    sites: sites.ok ? sites.data.sites.map((site) => ({ id: site.id, name: site.name })) : [],
  };
}

function isLocale(value: string | undefined): value is Locale {
  return locales.some((locale) => locale === value);
}

export async function action({ context, request }: Route.ActionArgs) {
  const api = staffApi(context.api);
  const form = await request.formData();
  const id = whole(form, 'id');
  if (form.get('intent') === 'delete' && typeof id === 'number') {
    const removed = await api('DELETE /api/admin/templates.php', { body: { id } });
    if (!removed.ok) return formError(removed);
    throw redirect('/admin/templates');
  }
  const site = whole(form, 'site');
  const language = text(form, 'language');
  const body = {
    site: typeof site === 'number' ? site : null,
    // An unknown language goes to the API as it is, which names the field.
    language: isLocale(language) ? language : ('en' as const),
    title: text(form, 'title') ?? '',
    text: text(form, 'text') ?? '',
  };
  if (!isLocale(language)) {
    return {
      errors: {
        status: 422,
        body: { error: 'validation_failed', message: '', fields: { language: 'invalid' } },
      },
    };
  }
  const result =
    typeof id === 'number'
      ? await api('PUT /api/admin/templates.php', { body: { id, ...body } })
      : await api('POST /api/admin/templates.php', { body });
  if (!result.ok) return formError(result);
  if (typeof id !== 'number') throw redirect(`/admin/templates?edit=${result.data.template.id}&saved=1`);
  return { saved: result.data.template };
}

/**
 * Reply templates (admins): canned lines and openers per site and member language, with the
 * variables the console fills in. Operators pick them in the conversation with Alt+T or "/".
 */
export default function Templates({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { items, edit, sites } = loaderData;
  const errors = actionErrors(actionData);
  const saved = (actionData && 'saved' in actionData) || loaderData.created;
  const siteName = (template: Template) =>
    template.site === null
      ? t('workbench:templates.everySite')
      : (sites.find((site) => site.id === template.site)?.name ?? `#${template.site}`);
  return (
    <AdminCrudPage
      path="/admin/templates"
      heading={t('admin:nav.templates')}
      lead={t('workbench:templates.lead')}
      items={items}
      empty={t('workbench:templates.empty')}
      columns={[
        { header: t('workbench:templates.title'), cell: (template) => <strong>{template.title}</strong> },
        {
          header: t('workbench:templates.language'),
          cell: (template) =>
            isLocale(template.language) ? localeNames[template.language] : template.language,
        },
        { header: t('workbench:templates.site'), cell: siteName },
        {
          header: t('workbench:templates.text'),
          className: 'small text-body-secondary',
          cell: (template) => (template.text.length > 80 ? `${template.text.slice(0, 80)}…` : template.text),
        },
      ]}
      editor={{
        edit,
        addLabel: t('workbench:templates.add'),
        editHeading: edit ? t('workbench:templates.editHeading', { title: edit.title }) : '',
        saved: saved ? t('admin:money.saved') : null,
        errors,
        after: edit ? (
          <Form method="post" className="mt-3">
            <input type="hidden" name="id" value={edit.id} />
            <button type="submit" name="intent" value="delete" className="btn btn-outline-danger btn-sm">
              {t('workbench:templates.delete')}
            </button>
          </Form>
        ) : null,
      }}
    >
      <AdminInput
        name="title"
        label={t('workbench:templates.title')}
        errors={errors}
        defaultValue={edit?.title}
        required
      />
      <div className="row g-2">
        <div className="col-6">
          <AdminField name="language" label={t('workbench:templates.language')} errors={errors}>
            {({ id, invalid, describedBy }) => (
              <select
                id={id}
                name="language"
                className={`form-select${invalid ? ' is-invalid' : ''}`}
                aria-describedby={describedBy}
                defaultValue={edit?.language ?? 'en'}
              >
                {locales.map((locale) => (
                  <option key={locale} value={locale}>
                    {localeNames[locale]}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
        </div>
        <div className="col-6">
          <AdminField name="site" label={t('workbench:templates.site')} errors={errors}>
            {({ id, invalid, describedBy }) => (
              <select
                id={id}
                name="site"
                className={`form-select${invalid ? ' is-invalid' : ''}`}
                aria-describedby={describedBy}
                defaultValue={edit?.site ?? ''}
              >
                <option value="">{t('workbench:templates.everySite')}</option>
                {sites.map((site) => (
                  <option key={site.id} value={site.id}>
                    {site.name}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
        </div>
      </div>
      <AdminField
        name="text"
        label={t('workbench:templates.text')}
        hint={t('workbench:templates.variables', {
          variables: '{member_name} {profile_name} {member_city} {member_age}',
        })}
        errors={errors}
      >
        {({ id, invalid, describedBy }) => (
          <textarea
            id={id}
            name="text"
            rows={5}
            maxLength={2000}
            required
            className={`form-control${invalid ? ' is-invalid' : ''}`}
            aria-describedby={describedBy}
            defaultValue={edit?.text}
          />
        )}
      </AdminField>
    </AdminCrudPage>
  );
}
