import { Form, Link, redirect } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/outbound';

export async function loader({ context, request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const member = Number(params.get('member'));
  if (!Number.isInteger(member) || member <= 0) throw new Response(null, { status: 404 });
  const result = await staffApi(context.api)('GET /api/admin/outbound.php', { query: { member } });
  if (!result.ok) throw new Response(null, { status: result.status });
  // A fresh key per form: a double submit sends one message.
  return { ...result.data, sent: params.has('sent'), clientId: crypto.randomUUID() };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await staffApi(context.api)('POST /api/admin/outbound.php', {
    body: {
      profile: Number(formText(form, 'profile')),
      member: Number(formText(form, 'member')),
      text: formText(form, 'text'),
      client_id: formText(form, 'client_id'),
    },
  });
  if (!result.ok) return formError(result);
  throw redirect(`/admin/outbound?member=${formText(form, 'member')}&sent=${result.data.conversation}`);
}

/**
 * Starting a conversation with a member as one of their site's fictional profiles (operators an
 * admin gave the right, leads, admins). The server refuses members who blocked the profile or opted
 * out; the message goes through the one send path like a reply.
 */
export default function Outbound({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { member, profiles, sent, clientId } = loaderData;
  return (
    <div className="row">
      <div className="col-12 col-lg-8 col-xl-6">
        <h1 className="h4">{t('admin:nav.outbound')}</h1>
        <p className="text-body-secondary">
          {t('admin:outbound.lead', { name: member.name, site: member.site.name })}
        </p>
        {sent && (
          <div className="alert alert-success py-2" role="status">
            {t('admin:outbound.sent')}
          </div>
        )}
        {actionData && 'errors' in actionData && <FormAlert errors={actionData.errors} />}
        {profiles.length === 0 ? (
          <p>{t('admin:outbound.noProfiles')}</p>
        ) : (
          <Form method="post" className="card card-body">
            <input type="hidden" name="member" value={member.id} />
            <input type="hidden" name="client_id" value={clientId} />
            <div className="mb-3">
              <label className="form-label" htmlFor="outbound-profile">
                {t('admin:outbound.profile')}
              </label>
              <select id="outbound-profile" name="profile" className="form-select" required>
                {profiles.map((profile) => (
                  <option key={profile.id} value={profile.id}>
                    {profile.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="mb-3">
              <label className="form-label" htmlFor="outbound-text">
                {t('admin:outbound.text')}
              </label>
              <textarea
                id="outbound-text"
                name="text"
                className="form-control"
                rows={4}
                required
                maxLength={5000}
              />
              <div className="form-text">{t('admin:outbound.hint')}</div>
            </div>
            <div className="d-flex gap-2">
              <button type="submit" className="btn btn-primary">
                {t('admin:outbound.send')}
              </button>
              <Link className="btn btn-link" to="/admin/inbox">
                {t('admin:outbound.back')}
              </Link>
            </div>
          </Form>
        )}
      </div>
    </div>
  );
}
