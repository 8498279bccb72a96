import { useTranslation } from 'react-i18next';
import { Form, Link, redirect, useNavigation } from 'react-router';
import type { ErrorBody } from '#contract/common.ts';
import type { Order } from '#contract/payments.ts';
import { FormAlert } from '../components/forms/form-field.tsx';
import { formError } from '../lib/actions.server.ts';
import { pageMeta } from '../lib/meta.ts';
import type { Route } from './+types/credits-repeat-order';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.credits');
}

export async function loader({ context }: Route.LoaderArgs) {
  const answer = await context.api<{ transactions: Order[] }>('/api/transactions.php');
  return {
    last: answer.ok ? (answer.data.transactions.find((order) => order.status === 'completed') ?? null) : null,
  };
}

export async function action({ context }: Route.ActionArgs) {
  const result = await context.api<{ checkout_url: string } | ErrorBody>('/api/repeat-order.php', {
    method: 'POST',
    body: {},
  });
  if (!result.ok) return formError(result);
  throw redirect((result.data as { checkout_url: string }).checkout_url);
}

/** Buy the last bundle again with the last method, in one step. */
export default function RepeatOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { last } = loaderData;
  return (
    <div className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3">{t('page.credits')}</h1>
      <FormAlert errors={actionData?.errors} />
      {last ? (
        <Form method="post">
          <p>
            {t('credits:repeat.lead', {
              count: last.credits,
              method: t(`credits:method.${last.paymentmethod}`),
            })}
          </p>
          <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
            {t('credits:repeat.submit')}
          </button>
        </Form>
      ) : (
        <>
          <p>{t('credits:repeat.none')}</p>
          <Link to="/credits" className="btn btn-primary">
            {t('credits:premium.cta')}
          </Link>
        </>
      )}
    </div>
  );
}
