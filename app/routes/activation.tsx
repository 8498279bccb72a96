import { Form, Link, useLocation, useMatches } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { formError } from '#app/lib/actions.server.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useSession } from '#app/state/session.tsx';
import type { Route } from './+types/activation';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(
    matches,
    matches.at(-1)?.id === 'activate-done' ? 'page.activateDone' : 'page.activateError',
  );
}

/** "Send the link again" for a logged-in member whose link no longer works. */
export async function action({ context }: Route.ActionArgs) {
  const result = await context.api('/api/activation-mail.php', { method: 'POST', body: {} });
  if (!result.ok) return formError(result);
  return { resent: true };
}

/**
 * What a just-activated member does next. A profile without a photo is hardly seen or liked, so
 * then the photo comes first (as the big apps lead a new profile), with search as the second way on.
 */
function DoneActions({ noPhoto }: { noPhoto: boolean }) {
  const { t } = useTranslation();
  if (!noPhoto)
    return (
      <Link to="/members" className="btn btn-primary">
        {t('auth:activate.doneAction')}
      </Link>
    );
  return (
    <div className="d-grid gap-2 d-sm-flex" data-testid="activation-next">
      <Link to="/profile#photos" className="btn btn-primary btn-lg">
        {t('auth:activate.addPhoto')}
      </Link>
      <Link to="/members" className="btn btn-outline-primary btn-lg">
        {t('auth:activate.doneAction')}
      </Link>
    </div>
  );
}

/** /activate/done and /activate/error, where the activation link of the mail lands. */
export default function Activation({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const done = useMatches().at(-1)?.id === 'activate-done';
  const { user } = useSession();
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const resent = actionData && 'resent' in actionData;
  const reactivation = new URLSearchParams(useLocation().search).get('reason') === 'reactivation';
  // A link used again by a member whose address is already confirmed: nothing is wrong.
  if (!done && !reactivation && user?.status === 'active') {
    return (
      <div className="container py-4" style={{ maxWidth: 560 }}>
        <h1 className="h3">{t('discover:activation.alreadyTitle')}</h1>
        <p data-testid="already-confirmed">{t('discover:activation.already')}</p>
        <DoneActions noPhoto={!user.profile.main_image} />
      </div>
    );
  }
  return (
    <div className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3">{t(done ? 'page.activateDone' : 'page.activateError')}</h1>
      <p>{t(done ? 'auth:activate.done' : 'auth:activate.error')}</p>
      {done ? (
        <DoneActions noPhoto={user !== null && !user.profile.main_image} />
      ) : user?.status === 'not_confirmed' ? (
        <>
          <FormAlert errors={errors} />
          {resent ? (
            <div className="alert alert-success" role="status">
              {t('auth:activate.resent', { email: user.email })}
            </div>
          ) : (
            <Form method="post">
              <button type="submit" className="btn btn-primary">
                {t('alert.activationResend')}
              </button>
            </Form>
          )}
        </>
      ) : (
        <Link to="/login" className="btn btn-primary">
          {t('nav.login')}
        </Link>
      )}
    </div>
  );
}
