import { Link, redirect } from 'react-router';
import { SignupForm } from '#app/components/signup-form.tsx';
import { formError, formText, redirectWithCookies } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import { parseDateInput } from '#app/lib/date-input.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { safeRedirectPath } from '#app/lib/safe-redirect.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/signup';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.signup', { public: true });
}

export async function loader({ context }: Route.LoaderArgs) {
  const me = await serverApi(context.api)('GET /api/user.php');
  if (me.ok && me.data.user) throw redirect('/members');
  return null;
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const message = formText(form, 'signup_message');
  const contact = Number(formText(form, 'profile')) || undefined;
  const result = await context.api('/api/signup.php', {
    method: 'POST',
    body: {
      email: formText(form, 'email'),
      name: formText(form, 'name'),
      password: formText(form, 'password'),
      // Typed the way the language writes dates; the API takes YYYY-MM-DD.
      date_of_birth:
        parseDateInput(formText(form, 'date_of_birth'), context.locale) ?? formText(form, 'date_of_birth'),
      ...(message ? { signup_message: message } : {}),
      ...(contact ? { profile: contact } : {}),
    },
  });
  if (!result.ok) return formError(result);
  return redirectWithCookies(safeRedirectPath(form.get('next'), '/complete-signup'), result);
}

export default function Signup() {
  const { t } = useTranslation();
  return (
    <div className="container py-4" style={{ maxWidth: 520 }}>
      <h1 className="h3">{t('auth:signup.heading')}</h1>
      <p className="text-body-secondary">{t('auth:signup.lead')}</p>
      <SignupForm />
      <p className="mt-3">
        {t('auth:signup.haveAccount')} <Link to="/login">{t('auth:signup.loginLink')}</Link>
      </p>
    </div>
  );
}
