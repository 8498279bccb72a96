import { Form, Link, useNavigation } from 'react-router';
import { DevicesSection } from '#app/components/account-security.tsx';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/staff-sessions';

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw new Response(null, { status: 404 });
  const api = staffApi(context.api);
  const [sessions, staff] = await Promise.all([
    api('GET /api/admin/staff-sessions.php', { query: { staff: id } }),
    api('GET /api/admin/staff.php'),
  ]);
  if (!sessions.ok) throw new Response(null, { status: sessions.status });
  const member = staff.ok ? staff.data.staff.find((entry) => entry.id === id) : undefined;
  if (!member) throw new Response(null, { status: 404 });
  return { id, name: member.name, sessions: sessions.data.sessions };
}

/** Ends one sign-in of the staff member, or all of them; they end on every instance at once. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const form = await request.formData();
  const staff = Number(params.id);
  const one = formText(form, 'intent') === 'session-end';
  const ended = await staffApi(context.api)('DELETE /api/admin/staff-sessions.php', {
    body: one ? { staff, id: Number(formText(form, 'id')) } : { staff },
  });
  return ended.ok ? { ended: ended.data.ended, one } : formError(ended);
}

/** An admin sees where a staff member is signed in, and signs out one device or every one. */
export default function StaffSessions({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { name, sessions } = loaderData;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  return (
    <div style={{ maxWidth: 720 }}>
      <p className="mb-2">
        <Link to="/admin/staff">{t('admin:staffSessions.back')}</Link>
      </p>
      <h1 className="h4 mb-3">{t('admin:staffSessions.heading', { name })}</h1>
      <FormAlert errors={errors} />
      {actionData && 'ended' in actionData && (
        <div className="alert alert-success" role="status">
          {t('admin:staff.sessionsEnded', { count: actionData.ended })}
        </div>
      )}
      {sessions.length === 0 ? (
        <p data-testid="devices">{t('admin:staffSessions.none', { name })}</p>
      ) : (
        <>
          <DevicesSection
            sessions={sessions}
            allowOthers={false}
            lead={t('admin:staffSessions.lead', { name })}
          />
          <Form method="post">
            <input type="hidden" name="intent" value="end-all" />
            <button
              type="submit"
              className="btn btn-outline-danger"
              disabled={navigation.state === 'submitting'}
            >
              {t('admin:staff.endSessions')}
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
