import { Form, Link, useSearchParams } from 'react-router';
import { formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/unsubscribe';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.notifications');
}

export async function action({ context, request }: Route.ActionArgs) {
  const token = formText(await request.formData(), 'token');
  const result = await serverApi(context.api)('POST /api/unsubscribe.php', { query: { token } });
  // A nudge's link stops that nudge's mails only; the page says so.
  return { done: result.ok, nudge: result.ok && result.data.stopped !== 'all' };
}

/** The unsubscribe link of a mail lands here; a button confirms, so a mail scanner's visit changes nothing. */
export default function Unsubscribe({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <div className="container py-5" style={{ maxWidth: 560 }}>
      {actionData?.done ? (
        <>
          <h1 className="h3">{t('notifications:unsubscribed.heading')}</h1>
          <p>
            {t(actionData.nudge ? 'notifications:unsubscribed.leadNudge' : 'notifications:unsubscribed.lead')}
          </p>
          <Link to="/notifications" className="btn btn-outline-primary">
            {t('page.notifications')}
          </Link>
        </>
      ) : (
        <Form method="post">
          <input type="hidden" name="token" value={params.get('token') ?? ''} />
          {actionData && (
            <div className="alert alert-danger" role="alert">
              {t('errors:link_invalid')}
            </div>
          )}
          <button type="submit" className="btn btn-primary">
            {t('mail:unsubscribe')}
          </button>
        </Form>
      )}
    </div>
  );
}
