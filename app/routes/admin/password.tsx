import { Form, redirect, useNavigation } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { firstSignInStep } from '#app/layouts/admin-layout.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/password';

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await staffApi(context.api)('PUT /api/admin/password.php', {
    body: { current: formText(form, 'current'), password: formText(form, 'password') },
  });
  if (!result.ok) return formError(result);
  // Next: two-factor enrolment unless done already, else the work.
  throw redirect(firstSignInStep(result.data.staff) ?? '/admin/inbox');
}

/**
 * "Choose your password": an account an admin created starts with the admin's password, so its
 * first step is one of its own (the API refuses everything else until then).
 */
export default function ChoosePassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  return (
    <div className="mx-auto" style={{ maxWidth: 440 }}>
      <h1 className="h3 mb-3">{t('workbench:password.heading')}</h1>
      <p>{t('workbench:password.intro')}</p>
      <FormAlert errors={errors} />
      <Form method="post" noValidate>
        <FormField
          name="current"
          type="password"
          autoComplete="current-password"
          required
          label={t('workbench:password.current')}
          errors={errors}
        />
        <FormField
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          label={t('workbench:password.new')}
          hint={t('workbench:password.hint')}
          errors={errors}
        />
        <div className="d-grid">
          <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
            {t('workbench:password.submit')}
          </button>
        </div>
      </Form>
    </div>
  );
}
