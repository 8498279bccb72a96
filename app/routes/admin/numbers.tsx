import { useMemo } from 'react';
import { Form } from 'react-router';
import uplotCss from 'uplot/dist/uPlot.min.css?url';
import { formError, formText } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { statsBreakdownOptions, statsGranularityOptions } from '#contract/admin-stats.ts';
import type { Route } from './+types/numbers';
import { formatSeconds } from './admin-socket.ts';
import { type ChartSeries, DayChart } from './numbers-chart.tsx';
import {
  CohortTable,
  CompareSites,
  CostsEditor,
  OperatorTables,
  TotalsTiles,
  WinbackTiles,
} from './numbers-sections.tsx';
import { PeriodAndSiteFields } from './period-fields.tsx';
import { TableScroll } from './table-scroll.tsx';

export function links() {
  return [{ rel: 'stylesheet', href: uplotCss }];
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const palette = ['#c2185b', '#1976d2', '#2e7d32', '#f57c00', '#6a1b9a', '#00838f'];

/** The last 30 UTC days up to today, unless the filters say otherwise. */
function defaultRange(now = new Date()) {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(now.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const fallback = defaultRange();
  const pick = (name: string) => url.searchParams.get(name)?.trim() ?? '';
  const filters = {
    from: dayPattern.test(pick('from')) ? pick('from') : fallback.from,
    to: dayPattern.test(pick('to')) ? pick('to') : fallback.to,
    site: /^\d+$/.test(pick('site')) ? pick('site') : '',
    breakdown: (statsBreakdownOptions as readonly string[]).includes(pick('breakdown'))
      ? pick('breakdown')
      : 'network',
    granularity: (statsGranularityOptions as readonly string[]).includes(pick('granularity'))
      ? pick('granularity')
      : 'day',
    view: pick('view') === 'compare' ? 'compare' : 'overview',
  };
  const { view, ...asked } = filters;
  const query = new URLSearchParams(Object.entries(asked).filter(([, value]) => value));
  const api = staffApi(context.api);
  const [stats, sites, costs] = await Promise.all([
    api('GET /api/admin/stats.php', { query: Object.fromEntries(query) }),
    api('GET /api/admin/sites.php'),
    api('GET /api/admin/traffic-costs.php', { query: filters.site ? { site: filters.site } : {} }),
  ]);
  if (!stats.ok && stats.status !== 422) throw new Response(null, { status: stats.status });
  const siteList = sites.ok ? sites.data.sites.map((site) => ({ id: site.id, name: site.name })) : [];
  // Side by side: the same range for every site, one call each (in parallel).
  const compared =
    view === 'compare' && stats.ok
      ? await Promise.all(
          siteList.map(async (site) => {
            const answer = await api('GET /api/admin/stats.php', {
              query: { ...Object.fromEntries(query), site: String(site.id) },
            });
            return { site, stats: answer.ok ? answer.data : null };
          }),
        )
      : [];
  return {
    filters,
    query: query.toString(),
    stats: stats.ok ? stats.data : null,
    sites: siteList,
    costs: costs.ok ? costs.data.costs : [],
    compared: compared.flatMap((entry) =>
      entry.stats ? [{ site: entry.site, totals: entry.stats.totals, winback: entry.stats.winback }] : [],
    ),
  };
}

/** Costs entered and removed on this page (admins): one form each, answered in place. */
export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const api = staffApi(context.api);
  if (formText(form, 'intent') === 'delete-cost') {
    const result = await api('DELETE /api/admin/traffic-costs.php', {
      body: { id: Number(formText(form, 'id')) },
    });
    return result.ok ? { intent: 'cost', saved: true as const } : formError(result);
  }
  const site = formText(form, 'site');
  const amount = Number(formText(form, 'amount').replace(',', '.'));
  const result = await api('POST /api/admin/traffic-costs.php', {
    body: {
      site: /^\d+$/.test(site) ? Number(site) : null,
      network: formText(form, 'network'),
      from: formText(form, 'from'),
      to: formText(form, 'to'),
      currency: formText(form, 'currency').trim().toUpperCase(),
      amount_cents: Number.isFinite(amount) ? Math.round(amount * 100) : Number.NaN,
    },
  });
  return result.ok ? { intent: 'cost', saved: true as const } : formError(result);
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function totals(list: Record<string, number>[]): Record<string, number> {
  const all: Record<string, number> = {};
  for (const revenue of list) {
    for (const [currency, cents] of Object.entries(revenue)) all[currency] = (all[currency] ?? 0) + cents;
  }
  return all;
}

/** The business at a glance (admins): KPI tiles, charts per day, the traffic sources and CSV files. */
export default function Numbers({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { filters, stats, sites, query, costs, compared } = loaderData;
  const locale = i18n.language;
  const money = (cents: number, currency: string) =>
    new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
  const revenueText = (revenue: Record<string, number>) =>
    Object.keys(revenue).length === 0
      ? '–'
      : Object.entries(revenue)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([currency, cents]) => money(cents, currency))
          .join(' · ');
  const percent = (part: number, whole: number) =>
    whole === 0
      ? '–'
      : new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(part / whole);
  const number = (value: number) => new Intl.NumberFormat(locale).format(value);

  const days = stats?.days ?? [];
  const dates = useMemo(() => days.map((day) => day.date), [days]);
  const currencies = useMemo(() => Object.keys(totals(days.map((day) => day.revenue))).sort(), [days]);
  const funnel = useMemo<ChartSeries[]>(
    () => [
      { label: t('admin:numbers.signups'), values: days.map((day) => day.signups), color: palette[0]! },
      {
        label: t('admin:numbers.activations'),
        values: days.map((day) => day.activations),
        color: palette[1]!,
      },
      {
        label: t('admin:numbers.firstPurchases'),
        values: days.map((day) => day.first_purchases),
        color: palette[2]!,
      },
      {
        label: t('admin:numbers.activeMembers'),
        values: days.map((day) => day.active_members),
        color: palette[3]!,
      },
    ],
    [days, t],
  );
  const revenue = useMemo<ChartSeries[]>(
    () =>
      currencies.map((currency, index) => ({
        label: currency,
        values: days.map((day) => (day.revenue[currency] ?? 0) / 100),
        color: palette[index % palette.length]!,
      })),
    [days, currencies],
  );
  const messages = useMemo<ChartSeries[]>(
    () => [
      {
        label: t('admin:numbers.messagesIn'),
        values: days.map((day) => day.messages_in),
        color: palette[1]!,
      },
      {
        label: t('admin:numbers.repliesOut'),
        values: days.map((day) => day.replies_out),
        color: palette[0]!,
      },
    ],
    [days, t],
  );
  const replyTimes = useMemo<ChartSeries[]>(
    () => [
      {
        label: t('admin:numbers.medianReply'),
        values: days.map((day) => (day.median_reply_seconds === null ? null : day.median_reply_seconds / 60)),
        color: palette[4]!,
      },
    ],
    [days, t],
  );
  const minutes = useMemo(() => (value: number) => `${Math.round(value * 10) / 10} min`, []);

  const signups = sum(days.map((day) => day.signups));
  const firstPurchases = sum(days.map((day) => day.first_purchases));
  const activations = sum(days.map((day) => day.activations));
  const orders = sum(days.map((day) => day.orders));
  const periods = stats?.periods ?? [];
  const periodDates = useMemo(() => periods.map((period) => period.period), [periods]);
  const moneyCurrencies = useMemo(
    () =>
      Object.keys(
        totals(
          periods.flatMap((period) => [period.revenue_cents, period.refunds_cents, period.chargebacks_cents]),
        ),
      ).sort(),
    [periods],
  );
  // Refunds and chargebacks as their own lines beside revenue, never netted into it.
  const moneyPerPeriod = useMemo<ChartSeries[]>(
    () =>
      moneyCurrencies.flatMap((currency, index) => [
        {
          label: t('numbers:series.revenue', { currency }),
          values: periods.map((period) => (period.revenue_cents[currency] ?? 0) / 100),
          color: palette[(index * 3) % palette.length]!,
        },
        {
          label: t('numbers:series.refunds', { currency }),
          values: periods.map((period) => (period.refunds_cents[currency] ?? 0) / 100),
          color: palette[(index * 3 + 3) % palette.length]!,
        },
        {
          label: t('numbers:series.chargebacks', { currency }),
          values: periods.map((period) => (period.chargebacks_cents[currency] ?? 0) / 100),
          color: palette[(index * 3 + 4) % palette.length]!,
        },
      ]),
    [periods, moneyCurrencies, t],
  );
  const membersPerPeriod = useMemo<ChartSeries[]>(
    () => [
      {
        label: t('numbers:tiles.payingMembers'),
        values: periods.map((period) => period.paying_members),
        color: palette[2]!,
      },
      {
        label: t('admin:numbers.activeMembers'),
        values: periods.map((period) => period.active_members),
        color: palette[3]!,
      },
    ],
    [periods, t],
  );
  const exportLink = (table: 'days' | 'trafficsources' | 'periods' | 'cohorts' | 'operators' | 'profiles') =>
    `/api/admin/stats-export.php?${query}&table=${table}`;

  return (
    <div className="numbers-page" style={{ maxWidth: 1200 }}>
      <h1 className="h4">{t('admin:numbers.heading')}</h1>
      <Form method="get" className="row g-2 align-items-end mb-3" aria-label={t('admin:numbers.filters')}>
        <PeriodAndSiteFields
          idPrefix="numbers"
          filters={filters}
          sites={sites}
          dateColumn="col-6 col-md-2"
          siteColumn="col-6 col-md-3"
        />
        <div className="col-6 col-md-3">
          <label htmlFor="numbers-breakdown" className="form-label">
            {t('admin:numbers.breakdown')}
          </label>
          <select
            id="numbers-breakdown"
            name="breakdown"
            className="form-select"
            defaultValue={filters.breakdown}
          >
            {statsBreakdownOptions.map((option) => (
              <option key={option} value={option}>
                {t(`admin:numbers.dimension.${option}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-6 col-md-2">
          <label htmlFor="numbers-granularity" className="form-label">
            {t('numbers:granularity.label')}
          </label>
          <select
            id="numbers-granularity"
            name="granularity"
            className="form-select"
            defaultValue={filters.granularity}
          >
            {statsGranularityOptions.map((option) => (
              <option key={option} value={option}>
                {t(`numbers:granularity.${option}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-6 col-md-2">
          <label htmlFor="numbers-view" className="form-label">
            {t('numbers:view.label')}
          </label>
          <select id="numbers-view" name="view" className="form-select" defaultValue={filters.view}>
            <option value="overview">{t('numbers:view.overview')}</option>
            <option value="compare">{t('numbers:view.compare')}</option>
          </select>
        </div>
        <div className="col-12 col-md-2">
          <button type="submit" className="btn btn-primary w-100">
            {t('admin:numbers.show')}
          </button>
        </div>
      </Form>
      {!stats ? (
        <div className="alert alert-warning" role="alert">
          {t('admin:numbers.badRange')}
        </div>
      ) : (
        <>
          <div className="row row-cols-2 row-cols-lg-4 g-2 mb-3">
            {[
              { label: t('admin:numbers.signups'), value: number(signups) },
              {
                label: t('admin:numbers.activationRate'),
                value: percent(activations, signups),
              },
              { label: t('admin:numbers.conversion'), value: percent(firstPurchases, signups) },
              {
                label: t('admin:numbers.revenue'),
                value: revenueText(totals(days.map((day) => day.revenue))),
              },
            ].map((tile) => (
              <div className="col" key={tile.label}>
                <div className="card h-100" data-testid="kpi">
                  <div className="card-body py-2">
                    <div className="small text-body-secondary">{tile.label}</div>
                    <div className="fs-5 fw-semibold">{tile.value}</div>
                  </div>
                </div>
              </div>
            ))}
          </div>
          <p className="small text-body-secondary">
            {t('admin:numbers.summary', { count: orders, from: filters.from, to: filters.to })}
          </p>
          <TotalsTiles totals={stats.totals} money={revenueText} number={number} />
          {filters.view === 'compare' && (
            <CompareSites compared={compared} money={revenueText} number={number} />
          )}
          <div className="d-flex flex-wrap align-items-center gap-2 mt-3 mb-2">
            <h2 className="h5 mb-0 me-auto">{t(`numbers:periods.heading.${stats.granularity}`)}</h2>
            <a className="btn btn-outline-secondary btn-sm" href={exportLink('periods')} download>
              {t('numbers:csv.periods')}
            </a>
          </div>
          <div className="row row-cols-1 row-cols-xl-2 g-3">
            <div className="col">
              <DayChart title={t('numbers:periods.moneyChart')} days={periodDates} series={moneyPerPeriod} />
            </div>
            <div className="col">
              <DayChart
                title={t('numbers:periods.membersChart')}
                days={periodDates}
                series={membersPerPeriod}
              />
            </div>
          </div>
          <TableScroll label={t(`numbers:periods.heading.${stats.granularity}`)}>
            <table className="table table-sm table-striped small" data-testid="periods-table">
              <thead>
                <tr>
                  <th scope="col">{t(`numbers:granularity.${stats.granularity}`)}</th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.revenue')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('numbers:tiles.refunds')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('numbers:tiles.chargebacks')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.orders')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('numbers:tiles.payingMembers')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.activeMembers')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('numbers:tiles.arpu')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('numbers:tiles.arppu')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...periods].reverse().map((period) => (
                  <tr key={period.period}>
                    <th scope="row" className="fw-normal">
                      {period.period}
                    </th>
                    <td className="text-end">{revenueText(period.revenue_cents)}</td>
                    <td className="text-end">{revenueText(period.refunds_cents)}</td>
                    <td className="text-end">{revenueText(period.chargebacks_cents)}</td>
                    <td className="text-end">{number(period.orders)}</td>
                    <td className="text-end">{number(period.paying_members)}</td>
                    <td className="text-end">{number(period.active_members)}</td>
                    <td className="text-end">{revenueText(period.arpu_cents)}</td>
                    <td className="text-end">{revenueText(period.arppu_cents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <CohortTable cohorts={stats.cohorts} money={revenueText} csv={exportLink('cohorts')} />
          <WinbackTiles winback={stats.winback} money={revenueText} number={number} />
          <OperatorTables
            operators={stats.operators}
            profiles={stats.profiles}
            number={number}
            csvOperators={exportLink('operators')}
            csvProfiles={exportLink('profiles')}
          />
          <div className="row row-cols-1 row-cols-xl-2 g-3">
            <div className="col">
              <DayChart title={t('admin:numbers.funnelChart')} days={dates} series={funnel} />
            </div>
            <div className="col">
              <DayChart title={t('admin:numbers.revenueChart')} days={dates} series={revenue} />
            </div>
            <div className="col">
              <DayChart title={t('admin:numbers.messagesChart')} days={dates} series={messages} />
            </div>
            <div className="col">
              <DayChart
                title={t('admin:numbers.replyChart')}
                days={dates}
                series={replyTimes}
                format={minutes}
              />
            </div>
          </div>

          <div className="d-flex flex-wrap align-items-center gap-2 mt-3 mb-2">
            <h2 className="h5 mb-0 me-auto">{t('admin:numbers.trafficHeading')}</h2>
            <a className="btn btn-outline-secondary btn-sm" href={exportLink('trafficsources')} download>
              {t('admin:numbers.csvTraffic')}
            </a>
          </div>
          <TableScroll label={t('admin:numbers.trafficHeading')}>
            <table className="table table-sm align-middle" data-testid="traffic-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin:numbers.dimension.network')}</th>
                  {filters.breakdown !== 'network' && (
                    <th scope="col">{t(`admin:numbers.dimension.${filters.breakdown}`)}</th>
                  )}
                  <th scope="col" className="text-end">
                    {t('admin:numbers.visits')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.signups')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('numbers:traffic.activations')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.buyers')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.conversion')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.revenue')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('numbers:traffic.perSignup')}
                  </th>
                  {filters.breakdown === 'network' && (
                    <>
                      <th scope="col" className="text-end">
                        {t('numbers:traffic.cost')}
                      </th>
                      <th scope="col" className="text-end">
                        {t('numbers:traffic.return')}
                      </th>
                    </>
                  )}
                </tr>
              </thead>
              <tbody>
                {stats.trafficsources.length === 0 && (
                  <tr>
                    <td colSpan={11} className="text-body-secondary">
                      {t('admin:numbers.noTraffic')}
                    </td>
                  </tr>
                )}
                {stats.trafficsources.map((row) => (
                  <tr key={`${row.network ?? ''}|${row.value ?? ''}`}>
                    <td>{row.network ?? <em>{t('admin:numbers.none')}</em>}</td>
                    {filters.breakdown !== 'network' && (
                      <td>{row.value ?? <em>{t('admin:numbers.none')}</em>}</td>
                    )}
                    <td className="text-end">{number(row.visits)}</td>
                    <td className="text-end">{number(row.signups)}</td>
                    <td className="text-end">{number(row.activations)}</td>
                    <td className="text-end">{number(row.buyers)}</td>
                    <td className="text-end">{percent(row.buyers, row.signups)}</td>
                    <td className="text-end">{revenueText(row.revenue)}</td>
                    <td className="text-end">{revenueText(row.revenue_per_signup_cents)}</td>
                    {filters.breakdown === 'network' && (
                      <>
                        <td className="text-end">{revenueText(row.cost_cents)}</td>
                        <td className="text-end">
                          {row.return_ratio === null
                            ? '–'
                            : new Intl.NumberFormat(locale, { style: 'percent' }).format(row.return_ratio)}
                        </td>
                      </>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>

          <CostsEditor
            costs={costs}
            sites={sites}
            site={filters.site}
            actionData={actionData}
            money={revenueText}
          />

          <div className="d-flex flex-wrap align-items-center gap-2 mt-3 mb-2">
            <h2 className="h5 mb-0 me-auto">{t('admin:numbers.daysHeading')}</h2>
            <a className="btn btn-outline-secondary btn-sm" href={exportLink('days')} download>
              {t('admin:numbers.csvDays')}
            </a>
          </div>
          <TableScroll label={t('admin:numbers.daysHeading')}>
            <table className="table table-sm table-striped small" data-testid="days-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin:numbers.date')}</th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.signups')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.activations')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.firstPurchases')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.orders')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.revenue')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.messagesIn')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.repliesOut')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.medianReply')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('admin:numbers.activeMembers')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...days].reverse().map((day) => (
                  <tr key={day.date}>
                    <th scope="row" className="fw-normal">
                      {day.date}
                    </th>
                    <td className="text-end">{day.signups}</td>
                    <td className="text-end">{day.activations}</td>
                    <td className="text-end">{day.first_purchases}</td>
                    <td className="text-end">{day.orders}</td>
                    <td className="text-end">{revenueText(day.revenue)}</td>
                    <td className="text-end">{day.messages_in}</td>
                    <td className="text-end">{day.replies_out}</td>
                    <td className="text-end">{formatSeconds(day.median_reply_seconds)}</td>
                    <td className="text-end">{day.active_members}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
    </div>
  );
}
