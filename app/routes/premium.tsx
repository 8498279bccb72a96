import { CheckCircleFill, Dash, StarFill } from 'react-bootstrap-icons';
import { Link } from 'react-router';
import { CreditsIcon } from '#app/components/credits-icon.tsx';
import { usePriceToPay } from '#app/components/offer-price.tsx';
import { serverApi } from '#app/lib/api.ts';
import { formatMoney, formatNumber, formatPercentOff } from '#app/lib/format.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useSession } from '#app/state/session.tsx';
import type { Route } from './+types/premium';

export const handle = { membersArea: true };

/** Spec §4: photos free 3, premium 25. */
const photoLimits = { free: 3, premium: 25 };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.premium');
}

export async function loader({ context }: Route.LoaderArgs) {
  const bundles = await serverApi(context.api)('GET /api/bundles.php');
  return {
    bundles: bundles.ok ? bundles.data.bundles : [],
    country: bundles.ok ? bundles.data.country : undefined,
    method: bundles.ok ? bundles.data.paymentmethods[0] : undefined,
  };
}

function Yes({ label }: { label: string }) {
  return (
    <>
      <CheckCircleFill aria-hidden="true" className="text-success" size={20} />
      <span className="visually-hidden">{label}</span>
    </>
  );
}

function No({ label }: { label: string }) {
  return (
    <>
      <Dash aria-hidden="true" className="text-body-secondary" size={20} />
      <span className="visually-hidden">{label}</span>
    </>
  );
}

/** Premium: what it adds (free vs premium, side by side) and what it costs (the first credit bundle). */
export default function Premium({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const { settings, locale } = useRootData();
  const cheapest = [...loaderData.bundles].sort((a, b) => a.price - b.price)[0];
  const priceOf = usePriceToPay();
  const from = cheapest ? priceOf({ ...cheapest, country: loaderData.country }, loaderData.method) : null;
  const yes = t('credits:premium.yes');
  const no = t('credits:premium.no');
  const rows = [
    { key: 'photos', free: t('credits:premium.photosFree'), premium: t('credits:premium.photosPremium') },
    {
      key: 'upload',
      free: formatNumber(photoLimits.free, locale),
      premium: formatNumber(photoLimits.premium, locale),
    },
    {
      key: 'chats',
      free: t('credits:premium.chatsFree', { count: settings.free_conversations }),
      premium: t('credits:premium.unlimited'),
    },
    { key: 'keep', free: <No label={no} />, premium: <Yes label={yes} /> },
    { key: 'search', free: <Yes label={yes} />, premium: <Yes label={yes} /> },
  ] as const;
  return (
    <div className="container py-4" style={{ maxWidth: 760 }}>
      <section className="premium-hero p-4 p-sm-5 mb-4 text-center">
        <StarFill aria-hidden="true" size={36} className="mb-3" />
        <h1 className="h2 mb-2">{t('credits:premium.title')}</h1>
        <p className="lead mb-3">{t('credits:premium.lead')}</p>
        {cheapest && from && (
          <p className="fs-5 fw-bold mb-0" data-testid="premium-from">
            {t('credits:premium.from', { price: formatMoney(from.amount, cheapest.currency, locale) })}
            {from.percentage !== null && (
              <span className="d-block fs-6 fw-normal">
                <span className="text-decoration-line-through">
                  {t('credits:bundle.was', { price: formatMoney(from.listPrice, cheapest.currency, locale) })}
                </span>{' '}
                <span className="offer-off">{formatPercentOff(from.percentage, locale)}</span>
              </span>
            )}
          </p>
        )}
      </section>
      <div className="surface overflow-hidden mb-4">
        <table className="table compare-table mb-0 text-center" data-testid="premium-compare">
          <caption className="visually-hidden">{t('credits:premium.compare')}</caption>
          <thead>
            <tr>
              <th scope="col" className="text-start">
                <span className="visually-hidden">{t('credits:premium.feature')}</span>
              </th>
              <th scope="col">{t('credits:premium.free')}</th>
              <th scope="col" className="is-premium">
                {t('page.premium')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row" className="text-start fw-semibold">
                  {t(`credits:premium.row.${row.key}`)}
                </th>
                <td>{row.free}</td>
                <td className="is-premium fw-semibold">{row.premium}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {user?.paid_user ? (
        <p className="alert alert-success">{t('credits:premium.already')}</p>
      ) : (
        <div className="text-center">
          <Link to="/credits" className="btn btn-cta btn-lg px-5">
            <CreditsIcon size={20} /> <span className="ms-1">{t('credits:premium.cta')}</span>
          </Link>
          <p className="small text-body-secondary mt-2">{t('credits:promise.noSubscription')}</p>
        </div>
      )}
    </div>
  );
}
