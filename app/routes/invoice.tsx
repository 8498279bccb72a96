import { data } from 'react-router';
import { InvoiceDocument, invoicedStatuses } from '#app/components/invoice-document.tsx';
import { serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/invoice';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.invoice');
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const one = await serverApi(context.api)('GET /api/transactions.php', {
    query: { id: Number(params.id) || 0 },
  });
  // Another member's, an unknown or an unpaid order: no invoice.
  if (!one.ok || !('transaction' in one.data) || !invoicedStatuses.has(one.data.transaction.status))
    throw data(null, { status: 404 });
  return { transaction: one.data.transaction };
}

/** The member's invoice of an own paid order. */
export default function Invoice({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { transaction } = loaderData;
  return (
    <InvoiceDocument
      transaction={transaction}
      back={{ to: `/transactions/${transaction.id}`, label: t('credits:invoice.back') }}
    />
  );
}
