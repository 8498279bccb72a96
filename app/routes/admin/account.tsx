import { Form } from 'react-router';
import { formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import { formatDate } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/account';

export async function loader({ context }: Route.LoaderArgs) {
  const result = await serverApi(context.api)('GET /api/admin/sessions.php');
  return { sessions: result.ok ? result.data.sessions : [] };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  await serverApi(context.api)('DELETE /api/admin/sessions.php', {
    body: { id: Number(formText(form, 'id')) },
  });
  return null;
}

/** The own sign-ins (12 hours each); any other one can be ended here. */
export default function Account({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  return (
    <div style={{ maxWidth: 720 }}>
      <h1 className="h4">{t('admin:account.heading')}</h1>
      <ul className="list-group">
        {loaderData.sessions.map((session) => (
          <li key={session.id} className="list-group-item d-flex flex-wrap gap-2 align-items-center">
            <div className="me-auto small">
              <div>{session.user_agent ?? '–'}</div>
              <div className="text-body-secondary">
                {session.ip ?? ''} ·{' '}
                {formatDate(session.created_at, locale, { dateStyle: 'short', timeStyle: 'short' })}
              </div>
            </div>
            {session.current ? (
              <span className="badge text-bg-success">{t('admin:account.current')}</span>
            ) : (
              <Form method="post">
                <input type="hidden" name="id" value={session.id} />
                <button type="submit" className="btn btn-sm btn-outline-danger">
                  {t('admin:account.end')}
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
