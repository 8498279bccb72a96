import { Form, useNavigation } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { StatsResponse, TrafficCost } from '#contract/admin-stats.ts';
import { actionErrors } from './crud-editor.tsx';
import { TableScroll } from './table-scroll.tsx';

type Money = Record<string, number>;
type MoneyText = (money: Money) => string;
type NumberText = (value: number) => string;

function Tile({ label, value, testId = 'total' }: { label: string; value: string; testId?: string }) {
  return (
    <div className="col">
      <div className="card h-100" data-testid={testId}>
        <div className="card-body py-2">
          <div className="small text-body-secondary">{label}</div>
          <div className="fs-5 fw-semibold text-break">{value}</div>
        </div>
      </div>
    </div>
  );
}

/** The range's money and heads: refunds and chargebacks in tiles of their own, never inside revenue. */
export function TotalsTiles({
  totals,
  money,
  number,
}: {
  totals: StatsResponse['totals'];
  money: MoneyText;
  number: NumberText;
}) {
  const { t } = useTranslation();
  return (
    <section aria-label={t('numbers:tiles.heading')} className="mb-3">
      <div className="row row-cols-2 row-cols-md-4 g-2" data-testid="totals">
        <Tile label={t('admin:numbers.revenue')} value={money(totals.revenue_cents)} />
        <Tile label={t('numbers:tiles.refunds')} value={money(totals.refunds_cents)} />
        <Tile label={t('numbers:tiles.chargebacks')} value={money(totals.chargebacks_cents)} />
        <Tile label={t('admin:numbers.orders')} value={number(totals.orders)} />
        <Tile label={t('numbers:tiles.payingMembers')} value={number(totals.paying_members)} />
        <Tile label={t('admin:numbers.activeMembers')} value={number(totals.active_members)} />
        <Tile label={t('numbers:tiles.arpu')} value={money(totals.arpu_cents)} />
        <Tile label={t('numbers:tiles.arppu')} value={money(totals.arppu_cents)} />
      </div>
    </section>
  );
}

/** Every site's totals over the same range, one column a site. */
export function CompareSites({
  compared,
  money,
  number,
}: {
  compared: {
    site: { id: number; name: string };
    totals: StatsResponse['totals'];
    winback: StatsResponse['winback'];
  }[];
  money: MoneyText;
  number: NumberText;
}) {
  const { t } = useTranslation();
  const rows: [string, (entry: (typeof compared)[number]) => string][] = [
    [t('admin:numbers.revenue'), (entry) => money(entry.totals.revenue_cents)],
    [t('numbers:tiles.refunds'), (entry) => money(entry.totals.refunds_cents)],
    [t('numbers:tiles.chargebacks'), (entry) => money(entry.totals.chargebacks_cents)],
    [t('admin:numbers.orders'), (entry) => number(entry.totals.orders)],
    [t('numbers:tiles.payingMembers'), (entry) => number(entry.totals.paying_members)],
    [t('admin:numbers.activeMembers'), (entry) => number(entry.totals.active_members)],
    [t('numbers:tiles.arpu'), (entry) => money(entry.totals.arpu_cents)],
    [t('numbers:tiles.arppu'), (entry) => money(entry.totals.arppu_cents)],
    [t('numbers:winback.redeemed'), (entry) => number(entry.winback.redeemed)],
  ];
  return (
    <section className="mb-3" aria-labelledby="numbers-compare">
      <h2 className="h5" id="numbers-compare">
        {t('numbers:compare.heading')}
      </h2>
      <TableScroll label={t('numbers:compare.heading')}>
        <table className="table table-sm align-middle" data-testid="compare-table">
          <thead>
            <tr>
              <th scope="col">{t('numbers:compare.figure')}</th>
              {compared.map((entry) => (
                <th scope="col" className="text-end" key={entry.site.id}>
                  {entry.site.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, value]) => (
              <tr key={label}>
                <th scope="row" className="fw-normal">
                  {label}
                </th>
                {compared.map((entry) => (
                  <td className="text-end" key={entry.site.id}>
                    {value(entry)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

/** A share as a cell whose background darkens with it: the cohorts read as a heat map. */
function ShareCell({ part, whole }: { part: number; whole: number }) {
  const { i18n } = useTranslation();
  const share = whole === 0 ? 0 : part / whole;
  const text =
    whole === 0
      ? '–'
      : new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(share);
  return (
    <td
      className="text-end"
      // Dark text on every shade: even the deepest (0.68 of the blue over white) keeps 4.5:1.
      style={{ backgroundColor: `rgba(25, 118, 210, ${(0.08 + share * 0.6).toFixed(2)})` }}
    >
      {text}
    </td>
  );
}

/** Per signup week: who paid within 1, 7 and 30 days, how fast, and revenue per member after 7, 30, 90 days. */
export function CohortTable({
  cohorts,
  money,
  csv,
}: {
  cohorts: StatsResponse['cohorts'];
  money: MoneyText;
  csv: string;
}) {
  const { t } = useTranslation();
  const hours = (value: number | null) =>
    value === null ? '–' : t('numbers:cohorts.hours', { count: value });
  return (
    <section className="mt-3" aria-labelledby="numbers-cohorts">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 className="h5 mb-0 me-auto" id="numbers-cohorts">
          {t('numbers:cohorts.heading')}
        </h2>
        <a className="btn btn-outline-secondary btn-sm" href={csv} download>
          {t('numbers:csv.cohorts')}
        </a>
      </div>
      <TableScroll label={t('numbers:cohorts.heading')}>
        <table className="table table-sm small align-middle" data-testid="cohort-table">
          <thead>
            <tr>
              <th scope="col">{t('numbers:cohorts.week')}</th>
              <th scope="col" className="text-end">
                {t('admin:numbers.signups')}
              </th>
              <th scope="col" className="text-end">
                {t('numbers:cohorts.paidWithin', { count: 1 })}
              </th>
              <th scope="col" className="text-end">
                {t('numbers:cohorts.paidWithin', { count: 7 })}
              </th>
              <th scope="col" className="text-end">
                {t('numbers:cohorts.paidWithin', { count: 30 })}
              </th>
              <th scope="col" className="text-end">
                {t('numbers:cohorts.medianTime')}
              </th>
              <th scope="col" className="text-end">
                {t('numbers:cohorts.revenueAfter', { count: 7 })}
              </th>
              <th scope="col" className="text-end">
                {t('numbers:cohorts.revenueAfter', { count: 30 })}
              </th>
              <th scope="col" className="text-end">
                {t('numbers:cohorts.revenueAfter', { count: 90 })}
              </th>
            </tr>
          </thead>
          <tbody>
            {cohorts.length === 0 && (
              <tr>
                <td colSpan={9} className="text-body-secondary">
                  {t('numbers:cohorts.none')}
                </td>
              </tr>
            )}
            {[...cohorts].reverse().map((cohort) => (
              <tr key={cohort.week}>
                <th scope="row" className="fw-normal">
                  {cohort.week}
                </th>
                <td className="text-end">{cohort.signups}</td>
                <ShareCell part={cohort.paid_within_1d} whole={cohort.signups} />
                <ShareCell part={cohort.paid_within_7d} whole={cohort.signups} />
                <ShareCell part={cohort.paid_within_30d} whole={cohort.signups} />
                <td className="text-end">{hours(cohort.median_hours_to_first_purchase)}</td>
                <td className="text-end">{money(cohort.revenue_per_member_7d_cents)}</td>
                <td className="text-end">{money(cohort.revenue_per_member_30d_cents)}</td>
                <td className="text-end">{money(cohort.revenue_per_member_90d_cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

export function WinbackTiles({
  winback,
  money,
  number,
}: {
  winback: StatsResponse['winback'];
  money: MoneyText;
  number: NumberText;
}) {
  const { t } = useTranslation();
  return (
    <section className="mt-3" aria-labelledby="numbers-winback">
      <h2 className="h5" id="numbers-winback">
        {t('numbers:winback.heading')}
      </h2>
      <div className="row row-cols-1 row-cols-sm-3 g-2" data-testid="winback">
        <Tile label={t('numbers:winback.issued')} value={number(winback.issued)} testId="winback-tile" />
        <Tile label={t('numbers:winback.redeemed')} value={number(winback.redeemed)} testId="winback-tile" />
        <Tile
          label={t('numbers:winback.revenue')}
          value={money(winback.revenue_cents)}
          testId="winback-tile"
        />
      </div>
    </section>
  );
}

/** Replies and what members spent after them (24 hours), per operator and per fictional profile. */
export function OperatorTables({
  operators,
  profiles,
  number,
  csvOperators,
  csvProfiles,
}: {
  operators: StatsResponse['operators'];
  profiles: StatsResponse['profiles'];
  number: NumberText;
  csvOperators: string;
  csvProfiles: string;
}) {
  const { t } = useTranslation();
  const table = (
    title: string,
    csv: string,
    csvLabel: string,
    rows: { id: number; name: string; replies: number; earned: number }[],
    testId: string,
  ) => (
    <div className="col">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h3 className="h6 mb-0 me-auto">{title}</h3>
        <a className="btn btn-outline-secondary btn-sm" href={csv} download>
          {csvLabel}
        </a>
      </div>
      <TableScroll label={title}>
        <table className="table table-sm align-middle" data-testid={testId}>
          <thead>
            <tr>
              <th scope="col">{t('numbers:earnings.name')}</th>
              <th scope="col" className="text-end">
                {t('numbers:earnings.replies')}
              </th>
              <th scope="col" className="text-end">
                {t('numbers:earnings.earned')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={3} className="text-body-secondary">
                  {t('numbers:earnings.none')}
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={row.id}>
                <td>{row.name}</td>
                <td className="text-end">{number(row.replies)}</td>
                <td className="text-end">{number(row.earned)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
  return (
    <section className="mt-3" aria-labelledby="numbers-earnings">
      <h2 className="h5" id="numbers-earnings">
        {t('numbers:earnings.heading')}
      </h2>
      <p className="small text-body-secondary">{t('numbers:earnings.rule')}</p>
      <div className="row row-cols-1 row-cols-lg-2 g-3">
        {table(
          t('numbers:earnings.operators'),
          csvOperators,
          t('numbers:csv.operators'),
          operators.map((row) => ({
            id: row.staff.id,
            name: row.staff.name,
            replies: row.replies,
            earned: row.earned_credits,
          })),
          'operators-table',
        )}
        {table(
          t('numbers:earnings.profiles'),
          csvProfiles,
          t('numbers:csv.profiles'),
          profiles.map((row) => ({
            id: row.profile.id,
            name: row.profile.name,
            replies: row.replies,
            earned: row.earned_credits,
          })),
          'profiles-table',
        )}
      </div>
    </section>
  );
}

/** What was spent per network and period: entered here, spread over its days, set against revenue. */
export function CostsEditor({
  costs,
  sites,
  site,
  actionData,
  money,
}: {
  costs: TrafficCost[];
  sites: { id: number; name: string }[];
  site: string;
  actionData: unknown;
  money: MoneyText;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const errors = actionErrors(actionData);
  const siteName = (id: number | null) =>
    id === null ? t('admin:numbers.allSites') : (sites.find((entry) => entry.id === id)?.name ?? String(id));
  return (
    <details className="card my-3" data-testid="costs">
      <summary className="card-header">{t('numbers:costs.heading')}</summary>
      <div className="card-body">
        <p className="small text-body-secondary">{t('numbers:costs.lead')}</p>
        {errors && (
          <div className="alert alert-danger py-2" role="alert">
            {t('numbers:costs.notSaved')}
          </div>
        )}
        <Form method="post" className="row g-2 align-items-end mb-3" aria-label={t('numbers:costs.add')}>
          <input type="hidden" name="intent" value="add-cost" />
          <div className="col-12 col-md-3">
            <label htmlFor="cost-site" className="form-label">
              {t('admin:numbers.site')}
            </label>
            <select id="cost-site" name="site" className="form-select" defaultValue={site}>
              <option value="">{t('admin:numbers.allSites')}</option>
              {sites.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.name}
                </option>
              ))}
            </select>
          </div>
          <div className="col-6 col-md-2">
            <label htmlFor="cost-network" className="form-label">
              {t('admin:numbers.dimension.network')}
            </label>
            <input id="cost-network" name="network" className="form-control" required />
          </div>
          <div className="col-6 col-md-2">
            <label htmlFor="cost-from" className="form-label">
              {t('admin:numbers.from')}
            </label>
            <input id="cost-from" name="from" type="date" className="form-control" required />
          </div>
          <div className="col-6 col-md-2">
            <label htmlFor="cost-to" className="form-label">
              {t('admin:numbers.to')}
            </label>
            <input id="cost-to" name="to" type="date" className="form-control" required />
          </div>
          <div className="col-3 col-md-1">
            <label htmlFor="cost-currency" className="form-label">
              {t('numbers:costs.currency')}
            </label>
            <input
              id="cost-currency"
              name="currency"
              className="form-control"
              defaultValue="EUR"
              maxLength={3}
              required
            />
          </div>
          <div className="col-3 col-md-2">
            <label htmlFor="cost-amount" className="form-label">
              {t('numbers:costs.amount')}
            </label>
            <input id="cost-amount" name="amount" inputMode="decimal" className="form-control" required />
          </div>
          <div className="col-12">
            <button
              type="submit"
              className="btn btn-outline-primary"
              disabled={navigation.state === 'submitting'}
            >
              {t('numbers:costs.add')}
            </button>
          </div>
        </Form>
        <TableScroll label={t('numbers:costs.heading')}>
          <table className="table table-sm align-middle" data-testid="costs-table">
            <thead>
              <tr>
                <th scope="col">{t('admin:numbers.site')}</th>
                <th scope="col">{t('admin:numbers.dimension.network')}</th>
                <th scope="col">{t('numbers:costs.period')}</th>
                <th scope="col" className="text-end">
                  {t('numbers:costs.amount')}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{t('numbers:costs.remove')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {costs.length === 0 && (
                <tr>
                  <td colSpan={5} className="text-body-secondary">
                    {t('numbers:costs.none')}
                  </td>
                </tr>
              )}
              {costs.map((cost) => (
                <tr key={cost.id}>
                  <td>{siteName(cost.site)}</td>
                  <td>{cost.network}</td>
                  <td>{t('numbers:costs.range', { from: cost.from, to: cost.to })}</td>
                  <td className="text-end">{money({ [cost.currency]: cost.amount_cents })}</td>
                  <td className="text-end">
                    <Form method="post">
                      <input type="hidden" name="intent" value="delete-cost" />
                      <input type="hidden" name="id" value={cost.id} />
                      <button type="submit" className="btn btn-link btn-sm p-0">
                        {t('numbers:costs.remove')}
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
    </details>
  );
}
