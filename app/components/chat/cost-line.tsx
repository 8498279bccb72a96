import { formatMoney } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useSession } from '#app/state/session.tsx';
import type { Costs } from '#contract/chats.ts';

/** Under the composer: the balance, what the next message costs (or the free ones left), the lowest price. */
export function CostLine({ costs }: { costs: Costs }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const { user } = useSession();
  const nextCost = costs.free_messages_left > 0 ? 0 : costs.message;
  return (
    <p className="small text-body-secondary mb-0 mt-1 d-flex flex-wrap gap-2" data-testid="chat-cost">
      {user && <span data-testid="chat-balance">{t('chat:balance', { count: user.credits })}</span>}
      <span>
        {costs.free_messages_left > 0
          ? t('chat:cost.free', { count: costs.free_messages_left })
          : t('chat:cost.message', { count: nextCost })}
      </span>
      {costs.minimum_message_cost && (
        <span>
          {t('chat:cost.from', {
            price: formatMoney(costs.minimum_message_cost.costs, costs.minimum_message_cost.currency, locale),
          })}
        </span>
      )}
    </p>
  );
}
