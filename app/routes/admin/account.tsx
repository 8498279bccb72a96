import { DevicesSection, PasskeysSection } from '#app/components/account-security.tsx';
import { staffPasskeys } from '#app/components/staff-passkeys.ts';
import { formText } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/account';

export async function loader({ context }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const [sessions, passkeys] = await Promise.all([
    api('GET /api/admin/sessions.php'),
    api('GET /api/admin/passkeys.php'),
  ]);
  return {
    sessions: sessions.ok ? sessions.data.sessions : [],
    passkeys: passkeys.ok ? passkeys.data.passkeys : [],
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const id = Number(formText(form, 'id'));
  const api = staffApi(context.api);
  if (intent === 'passkey-remove') {
    const result = await api('DELETE /api/admin/passkeys.php', { body: { id } });
    return { intent, done: result.ok };
  }
  if (intent.endsWith('-others')) {
    const result = await api('DELETE /api/admin/sessions.php', { body: { others: true } });
    return { intent: 'session-end-others', done: result.ok };
  }
  const result = await api('DELETE /api/admin/sessions.php', { body: { id } });
  return { intent: 'session-end', done: result.ok };
}

/** The own sign-ins (12 hours each), any other of which can be ended here, and the own passkeys. */
export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div style={{ maxWidth: 720 }}>
      <h1 className="h4 mb-3">{t('admin:account.heading')}</h1>
      <section className="card mb-4" aria-labelledby="staff-passkeys-title">
        <div className="card-body">
          <h2 className="h5 card-title" id="staff-passkeys-title">
            {t('security:passkeys.heading')}
          </h2>
          {actionData?.intent === 'passkey-remove' && actionData.done && (
            <div className="alert alert-success" role="status">
              {t('security:passkeys.removed')}
            </div>
          )}
          <PasskeysSection
            passkeys={loaderData.passkeys}
            lead={t('security:staff.passkeysLead')}
            registration={staffPasskeys}
          />
        </div>
      </section>
      <section className="card" aria-labelledby="staff-devices-title">
        <div className="card-body">
          <h2 className="h5 card-title" id="staff-devices-title">
            {t('security:devices.heading')}
          </h2>
          <DevicesSection
            sessions={loaderData.sessions}
            ended={
              actionData?.done && actionData.intent === 'session-end'
                ? 'one'
                : actionData?.done && actionData.intent === 'session-end-others'
                  ? 'others'
                  : undefined
            }
          />
        </div>
      </section>
    </div>
  );
}
