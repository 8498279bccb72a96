import { Form, Link, useNavigation, useSearchParams } from 'react-router';
import { formText } from '#app/lib/actions.server.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/mail-change-do';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.mailChangeDo');
}

export async function action({ context, request }: Route.ActionArgs) {
  const token = formText(await request.formData(), 'token');
  const result = await context.api('/api/mail-change.php', { method: 'PUT', body: { token } });
  return { confirmed: result.ok };
}

/**
 * The link of the e-mail change mail. Confirming is a button, so a mail scanner's visit changes
 * nothing; the page says "changed" only once the API has confirmed the change.
 */
export default function MailChangeDo({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  if (actionData) {
    return (
      <div className="container py-4" style={{ maxWidth: 560 }}>
        <h1 className="h3" data-testid="mail-change-heading">
          {t(actionData.confirmed ? 'auth:mailChange.doneHeading' : 'auth:mailChange.errorHeading')}
        </h1>
        <div className={`alert ${actionData.confirmed ? 'alert-success' : 'alert-danger'}`} role="status">
          {t(actionData.confirmed ? 'auth:mailChange.done' : 'auth:mailChange.error')}
        </div>
        <Link to="/members" className="btn btn-primary">
          {t('auth:activate.doneAction')}
        </Link>
      </div>
    );
  }
  return (
    <div className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3" data-testid="mail-change-heading">
        {t('auth:mailChange.confirmHeading')}
      </h1>
      <p>{t('auth:mailChange.confirmLead')}</p>
      <Form method="post">
        <input type="hidden" name="token" value={params.get('token') ?? ''} />
        <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
          {t('auth:mailChange.confirm')}
        </button>
      </Form>
    </div>
  );
}
