import { data } from 'react-router';
import { InvoiceDocument, invoicedStatuses } from '#app/components/invoice-document.tsx';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/order-invoice';

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw data(null, { status: 404 });
  const result = await staffApi(context.api)('GET /api/admin/invoice.php', { query: { id } });
  if (!result.ok) throw data(null, { status: result.status });
  // An unpaid order has no invoice, for staff as for its member.
  if (!invoicedStatuses.has(result.data.transaction.status)) throw data(null, { status: 404 });
  return result.data;
}

/** A member's invoice as the member sees it (the same document), for staff who see the orders. */
export default function OrderInvoice({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { transaction } = loaderData;
  return (
    <InvoiceDocument
      transaction={transaction}
      back={{
        to: `/admin/orders/${transaction.id}`,
        label: t('admin:orders.backToOrder', { id: transaction.id }),
      }}
    />
  );
}
