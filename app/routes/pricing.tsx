import { useTranslation } from 'react-i18next';
import type { BundlesResponse } from '#contract/payments.ts';
import { formatMoney } from '../lib/format.ts';
import { pageMeta } from '../lib/meta.ts';
import { useRootData } from '../lib/root-data.ts';
import type { Route } from './+types/pricing';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.pricing', { public: true });
}

export async function loader({ context }: Route.LoaderArgs) {
  return (await context.api<BundlesResponse>('/api/bundles.php')).data;
}

/** Public prices: what chat costs in credits, and the bundles in the visitor's currency. */
export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings, locale } = useRootData();
  return (
    <div className="container py-4" style={{ maxWidth: 720 }}>
      <h1 className="h3">{t('page.pricing')}</h1>
      <p>{t('credits:pricing.lead')}</p>
      <ul>
        <li>{t('credits:pricing.message', { count: settings.message_credits })}</li>
        <li>{t('credits:pricing.photo', { count: settings.photo_credits })}</li>
        <li>{t('credits:pricing.gift', { count: settings.gift_credits })}</li>
      </ul>
      <p>{t('credits:pricing.freeMessages', { count: settings.free_messages })}</p>
      <h2 className="h5">{t('credits:pricing.bundles')}</h2>
      <table className="table">
        <tbody>
          {loaderData.bundles.map((bundle) => (
            <tr key={bundle.id}>
              <td>{t('credits:bundle.credits', { count: bundle.credits })}</td>
              <td className="text-end">{formatMoney(bundle.price, bundle.currency, locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
