import { useTranslation } from 'react-i18next';
import { Form, Link, redirect, useNavigation } from 'react-router';
import type { UserResponse } from '#contract/users.ts';
import { FormAlert } from '../components/forms/form-field.tsx';
import { formError, formText } from '../lib/actions.server.ts';
import { pageMeta } from '../lib/meta.ts';
import type { Route } from './+types/complete-signup';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.completeSignup');
}

export async function loader({ context }: Route.LoaderArgs) {
  const me = await context.api<UserResponse>('/api/user.php');
  if (!me.ok || !me.data.user) throw redirect('/signup');
  return null;
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await context.api('/api/complete-signup.php', {
    method: 'POST',
    body: { gender: formText(form, 'gender'), seeking: formText(form, 'seeking') },
  });
  if (!result.ok) return formError(result);
  throw redirect('/members');
}

function Choice({ name, value, label }: { name: string; value: string; label: string }) {
  const id = `${name}-${value}`;
  return (
    <>
      <input type="radio" className="btn-check" name={name} id={id} value={value} required />
      <label className="btn btn-outline-primary" htmlFor={id}>
        {label}
      </label>
    </>
  );
}

export default function CompleteSignup({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <div className="container py-4" style={{ maxWidth: 520 }}>
      <h1 className="h3">{t('page.completeSignup')}</h1>
      <p className="text-body-secondary">{t('auth:completeSignup.lead')}</p>
      <FormAlert errors={actionData?.errors} />
      <Form method="post">
        <fieldset className="mb-3">
          <legend className="form-label fs-6">{t('auth:completeSignup.gender')}</legend>
          <div className="d-flex gap-2">
            <Choice name="gender" value="male" label={t('auth:gender.male')} />
            <Choice name="gender" value="female" label={t('auth:gender.female')} />
          </div>
        </fieldset>
        <fieldset className="mb-4">
          <legend className="form-label fs-6">{t('auth:completeSignup.seeking')}</legend>
          <div className="d-flex flex-wrap gap-2">
            <Choice name="seeking" value="female" label={t('auth:seeking.female')} />
            <Choice name="seeking" value="male" label={t('auth:seeking.male')} />
            <Choice name="seeking" value="both" label={t('auth:seeking.both')} />
          </div>
        </fieldset>
        <div className="d-flex gap-3 align-items-center">
          <button
            type="submit"
            className="btn btn-primary btn-lg"
            disabled={navigation.state === 'submitting'}
          >
            {t('auth:completeSignup.submit')}
          </button>
          <Link to="/members">{t('auth:completeSignup.skip')}</Link>
        </div>
      </Form>
    </div>
  );
}
