import { data, Form, redirect } from 'react-router';
import { formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import { formatMoney } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { safeRedirectPath } from '#app/lib/safe-redirect.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { testPaymentBodySchema } from '#contract/endpoints/payments.ts';
import type { Route } from './+types/payments-test';

export async function loader({ context, params }: Route.LoaderArgs) {
  const answer = await serverApi(context.api)('GET /api/test-payment.php', {
    query: { payment: params.payment },
  });
  if (!answer.ok) throw data(null, { status: 404 });
  return answer.data.payment;
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const status = testPaymentBodySchema.shape.status.safeParse(formText(await request.formData(), 'status'));
  if (!status.success) throw data(null, { status: 422 });
  const answer = await serverApi(context.api)('POST /api/test-payment.php', {
    body: { payment: params.payment, status: status.data },
  });
  if (!answer.ok) throw data(null, { status: 404 });
  throw redirect(safeRedirectPath(answer.data.redirect, '/transactions'));
}

/** The test provider's checkout (PAYMENT_PROVIDER=test): the payer picks the outcome. */
export default function TestCheckout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  return (
    <div className="container py-5" style={{ maxWidth: 480 }}>
      <h1 className="h3">{t('credits:testCheckout.heading')}</h1>
      <p>{loaderData.description}</p>
      <div className="fs-4 fw-semibold mb-3">
        {formatMoney(loaderData.amount, loaderData.currency, locale)}
      </div>
      <p className="text-body-secondary">{t('credits:testCheckout.lead')}</p>
      <Form method="post" className="d-grid gap-2">
        <button type="submit" name="status" value="paid" className="btn btn-success">
          {t('credits:testCheckout.paid')}
        </button>
        <button type="submit" name="status" value="failed" className="btn btn-outline-danger">
          {t('credits:testCheckout.failed')}
        </button>
        <button type="submit" name="status" value="canceled" className="btn btn-outline-secondary">
          {t('credits:testCheckout.canceled')}
        </button>
      </Form>
    </div>
  );
}
