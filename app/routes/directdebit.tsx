import { Form, useNavigation } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Mandate } from '#contract/endpoints/payments.ts';
import type { Route } from './+types/directdebit';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.directDebit');
}

export async function loader({ context }: Route.LoaderArgs) {
  const answer = await serverApi(context.api)('GET /api/directdebit.php');
  return { mandate: answer.ok ? answer.data.mandate : null };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get('intent') === 'confirm') {
    const result = await serverApi(context.api)('PUT /api/directdebit.php', {
      body: { mandate: Number(formText(form, 'mandate')), code: formText(form, 'code') },
    });
    if (!result.ok)
      return {
        ...(await formError(result)).data,
        pending: Number(formText(form, 'mandate')),
        phone: formText(form, 'phone'),
      };
    return { mandate: result.data.mandate };
  }
  const entered = {
    account_holder: formText(form, 'account_holder'),
    iban: formText(form, 'iban'),
    phone: formText(form, 'phone'),
  };
  const result = await serverApi(context.api)('POST /api/directdebit.php', { body: entered });
  if (!result.ok) return formError(result, entered);
  const { mandate } = result.data;
  return { pending: mandate.id, phone: mandate.phone };
}

/** SEPA direct debit (spec §2): account holder and IBAN, confirmed by a code sent by SMS. */
export default function DirectDebit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { company, settings } = useRootData();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const result = actionData as
    | {
        mandate?: Mandate;
        pending?: number;
        phone?: string;
        errors?: never;
        values?: { account_holder: string; iban: string; phone: string };
      }
    | undefined;
  const entered = result?.values;
  const mandate = result?.mandate ?? (loaderData.mandate?.status === 'active' ? loaderData.mandate : null);
  const errors = result && 'errors' in result ? (result as { errors: never }).errors : undefined;
  return (
    <div className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3">{t('page.directDebit')}</h1>
      {mandate?.status === 'active' ? (
        <div className="alert alert-success" role="status" data-testid="mandate-active">
          {t('directdebit:active', { iban: mandate.iban })}
        </div>
      ) : result?.pending ? (
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="mandate" value={result.pending} />
          <input type="hidden" name="phone" value={result.phone ?? ''} />
          <p>{t('directdebit:codeLead', { phone: result.phone ?? '' })}</p>
          <FormAlert errors={errors} />
          <FormField
            name="code"
            label={t('directdebit:code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            errors={errors}
          />
          <p className="small text-body-secondary">
            {t('directdebit:mandateText', { company: company?.name ?? settings.name })}
          </p>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('directdebit:confirm')}
          </button>
        </Form>
      ) : (
        <Form method="post" noValidate>
          <p className="text-body-secondary">{t('directdebit:lead')}</p>
          <FormAlert errors={errors} />
          <FormField
            name="account_holder"
            label={t('directdebit:accountHolder')}
            autoComplete="name"
            defaultValue={entered?.account_holder}
            required
            errors={errors}
          />
          <FormField
            name="iban"
            label={t('directdebit:iban')}
            autoComplete="off"
            defaultValue={entered?.iban}
            required
            errors={errors}
          />
          <FormField
            name="phone"
            type="tel"
            label={t('directdebit:phone')}
            hint={t('directdebit:phoneHint')}
            autoComplete="tel"
            defaultValue={entered?.phone}
            required
            errors={errors}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('directdebit:submit')}
          </button>
        </Form>
      )}
    </div>
  );
}
