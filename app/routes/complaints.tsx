import { Form, useNavigation } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useSession } from '#app/state/session.tsx';
import type { Route } from './+types/complaints';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.complaints', { public: true });
}

export async function loader({ context }: Route.LoaderArgs) {
  const page = await serverApi(context.api)('GET /api/page.php', { query: { page: 'complaints' } });
  if (!page.ok) throw new Response(null, { status: page.status || 500 });
  return page.data;
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const body = {
    name: formText(form, 'name'),
    email: formText(form, 'email'),
    subject: formText(form, 'subject'),
    message: formText(form, 'message'),
  };
  const result = await context.api('/api/complaint.php', { method: 'POST', body });
  if (!result.ok) return formError(result);
  return { sentTo: body.email };
}

/** How complaints are handled, and the form (pre-filled for members). */
export default function Complaints({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const navigation = useNavigation();
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  return (
    <article className="container py-4 legal-page" style={{ maxWidth: 820 }}>
      <h1 className="h2 mb-4">{loaderData.title}</h1>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: trusted Markdown from content/, values escaped on the server. */}
      <div dangerouslySetInnerHTML={{ __html: loaderData.html }} />
      {user && <p className="small text-body-secondary">{t('content:complaints.reportHint')}</p>}
      {actionData && 'sentTo' in actionData ? (
        <div className="alert alert-success" role="status">
          {t('content:complaints.thanks', { email: actionData.sentTo })}
        </div>
      ) : (
        <Form method="post" noValidate className="mt-4" style={{ maxWidth: 560 }}>
          <FormAlert errors={errors} />
          <FormField
            name="name"
            label={t('content:complaints.name')}
            required
            maxLength={100}
            defaultValue={user?.profile.name ?? ''}
            errors={errors}
          />
          <FormField
            name="email"
            type="email"
            label={t('content:complaints.email')}
            required
            defaultValue={user?.email ?? ''}
            errors={errors}
          />
          <FormField
            name="subject"
            label={t('content:complaints.subject')}
            required
            maxLength={200}
            errors={errors}
          />
          <div className="mb-3">
            <label htmlFor="complaint-message" className="form-label">
              {t('content:complaints.message')}
            </label>
            <textarea
              id="complaint-message"
              name="message"
              className="form-control"
              rows={6}
              required
              maxLength={5000}
            />
          </div>
          <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
            {t('content:complaints.submit')}
          </button>
        </Form>
      )}
    </article>
  );
}
