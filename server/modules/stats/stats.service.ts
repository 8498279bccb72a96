import type {
  StatsBreakdown,
  StatsCohort,
  StatsDay,
  StatsQuery,
  StatsResponse,
  StatsTotals,
  TrafficSourceRow,
} from '#contract/admin-stats.ts';
import type { Database } from '#server/db/client.ts';
import { type Clock, systemClock } from '#server/lib/clock.ts';
import { toCsv } from '#server/lib/csv.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import * as repo from './stats.repository.ts';

const dayMs = 86_400_000;
const hourMs = 3_600_000;

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + dayMs).toISOString().slice(0, 10);

/** The days from … to (UTC dates, both included) of a range's sites. */
function subRange(range: repo.StatsRange, from: string, to: string): repo.StatsRange {
  return {
    from,
    to,
    start: new Date(`${from}T00:00:00Z`),
    end: new Date(`${nextDay(to)}T00:00:00Z`),
    siteIds: range.siteIds,
  };
}

function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += dayMs) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

function add(revenue: Record<string, number>, currency: string, cents: number): void {
  revenue[currency] = (revenue[currency] ?? 0) + cents;
}

type Money = Record<string, number>;

function sumOf(days: StatsDay[], pick: (day: StatsDay) => Money): Money {
  const total: Money = {};
  for (const day of days)
    for (const [currency, cents] of Object.entries(pick(day))) add(total, currency, cents);
  return total;
}

/** Each currency's amount divided by a head count, rounded to the cent; nothing for no heads. */
function perHead(money: Money, heads: number): Money {
  if (heads === 0) return {};
  return Object.fromEntries(
    Object.entries(money).map(([currency, cents]) => [currency, Math.round(cents / heads)]),
  );
}

const emptyTotals = (): StatsTotals => ({
  revenue_cents: {},
  refunds_cents: {},
  chargebacks_cents: {},
  orders: 0,
  paying_members: 0,
  active_members: 0,
  arpu_cents: {},
  arppu_cents: {},
});

/** The numbers of the back office's dashboard and its traffic-source table. */
export class StatsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  async stats(query: StatsQuery): Promise<StatsResponse> {
    const siteIds = await repo.allSiteIds(this.db);
    if (query.site !== undefined && !siteIds.includes(query.site)) throw new NotFoundError();
    const range: repo.StatsRange = {
      from: query.from,
      to: query.to,
      start: new Date(`${query.from}T00:00:00Z`),
      end: new Date(Date.parse(`${query.to}T00:00:00Z`) + dayMs),
      siteIds: query.site !== undefined ? [query.site] : siteIds,
    };
    const base = {
      from: query.from,
      to: query.to,
      site: query.site ?? null,
      breakdown: query.breakdown,
    };
    const days = new Map<string, StatsDay>(
      daysOf(query.from, query.to).map((date) => [
        date,
        {
          date,
          signups: 0,
          activations: 0,
          first_purchases: 0,
          orders: 0,
          revenue: {},
          messages_in: 0,
          replies_out: 0,
          median_reply_seconds: null,
          active_members: 0,
          refunds: {},
          chargebacks: {},
        },
      ]),
    );
    if (range.siteIds.length === 0)
      return { ...base, days: [...days.values()], trafficsources: [], totals: emptyTotals(), cohorts: [] };

    const [
      signups,
      activations,
      firstPurchases,
      orders,
      partlyRefunded,
      reversals,
      { messages, active },
      trafficsources,
      heads,
      cohorts,
    ] = await Promise.all([
      repo.membersPerDay(this.db, range, 'signup_date'),
      repo.membersPerDay(this.db, range, 'activated_at'),
      repo.membersPerDay(this.db, range, 'first_purchase_at'),
      repo.ordersPerDay(this.db, range),
      repo.partlyRefundedPerDay(this.db, range),
      repo.reversalsPerDay(this.db, range),
      this.messagesAndActive(range),
      this.trafficSources(range, query.breakdown),
      repo.payingAndActive(this.db, range),
      this.cohorts(range),
    ]);
    const at = (day: string) => days.get(day);
    for (const row of signups) {
      const found = at(row.day);
      if (found) found.signups = row.n;
    }
    for (const row of activations) {
      const found = at(row.day);
      if (found) found.activations = row.n;
    }
    for (const row of firstPurchases) {
      const found = at(row.day);
      if (found) found.first_purchases = row.n;
    }
    for (const row of [...orders, ...partlyRefunded]) {
      const found = at(row.day);
      if (!found) continue;
      found.orders += row.n;
      add(found.revenue, row.currency, row.cents);
    }
    for (const row of reversals) {
      const found = at(row.day);
      if (found) add(row.kind === 'refund' ? found.refunds : found.chargebacks, row.currency, row.cents);
    }
    for (const row of messages) {
      const found = at(row.day);
      if (!found) continue;
      found.messages_in = row.messages_in;
      found.replies_out = row.replies_out;
      found.median_reply_seconds = row.median === null ? null : Math.round(row.median);
    }
    for (const row of active) {
      const found = at(row.day);
      if (found) found.active_members = row.n;
    }
    const list = [...days.values()];
    const revenue = sumOf(list, (day) => day.revenue);
    const totals: StatsTotals = {
      revenue_cents: revenue,
      refunds_cents: sumOf(list, (day) => day.refunds),
      chargebacks_cents: sumOf(list, (day) => day.chargebacks),
      orders: list.reduce((total, day) => total + day.orders, 0),
      paying_members: heads.paying,
      active_members: heads.active,
      arpu_cents: perHead(revenue, heads.active),
      arppu_cents: perHead(revenue, heads.paying),
    };
    return { ...base, days: list, trafficsources, totals, cohorts };
  }

  /** The signup weeks of the range: who paid within 1, 7 and 30 days, how fast, and what they spent. */
  private async cohorts(range: repo.StatsRange): Promise<StatsCohort[]> {
    const [members, revenue] = await Promise.all([
      repo.cohortMembers(this.db, range),
      repo.cohortRevenue(this.db, range),
    ]);
    return members
      .sort((a, b) => a.week.localeCompare(b.week))
      .map((cohort) => {
        const spent = revenue.filter((row) => row.week === cohort.week);
        const within = (pick: (row: (typeof spent)[number]) => number) =>
          perHead(Object.fromEntries(spent.map((row) => [row.currency, pick(row)])), cohort.signups);
        return {
          week: cohort.week,
          signups: cohort.signups,
          paid_within_1d: cohort.paid_1d,
          paid_within_7d: cohort.paid_7d,
          paid_within_30d: cohort.paid_30d,
          median_hours_to_first_purchase:
            cohort.median_hours === null ? null : Math.round(cohort.median_hours * 10) / 10,
          revenue_per_member_7d_cents: within((row) => row.d7),
          revenue_per_member_30d_cents: within((row) => row.d30),
          revenue_per_member_90d_cents: within((row) => row.d90),
        };
      });
  }

  /**
   * Messages, replies, median reply time and active members per day. A closed day (ended an hour ago
   * or more: a transaction begun before midnight may still write to it) is read from
   * stats_site_days, filled the first time it is asked for; the days after it are computed from the
   * messages and active days, as all of them were before (docs/decisions/018).
   */
  private async messagesAndActive(range: repo.StatsRange) {
    const lastClosed = new Date(this.clock.now().getTime() - hourMs - dayMs).toISOString().slice(0, 10);
    const messages: Awaited<ReturnType<typeof repo.messagesPerDay>> = [];
    const active: { day: string; n: number }[] = [];
    if (range.from <= lastClosed) {
      const closed = subRange(range, range.from, range.to < lastClosed ? range.to : lastClosed);
      const missing = await repo.missingSiteDays(this.db, closed);
      if (missing.length > 0) {
        const first = missing.map((row) => row.first).sort()[0]!;
        const last = missing
          .map((row) => row.last)
          .sort()
          .at(-1)!;
        await repo.fillSiteDays(this.db, {
          ...subRange(range, first, last),
          siteIds: missing.map((row) => row.site_id),
        });
      }
      for (const row of await repo.storedSiteDays(this.db, closed)) {
        messages.push(row);
        active.push({ day: row.day, n: row.active_members });
      }
    }
    if (range.to > lastClosed) {
      const open = subRange(range, range.from > lastClosed ? range.from : nextDay(lastClosed), range.to);
      const [live, liveActive] = await Promise.all([
        repo.messagesPerDay(this.db, open),
        repo.activeMembersPerDay(this.db, open),
      ]);
      messages.push(...live);
      active.push(...liveActive);
    }
    return { messages, active };
  }

  private async trafficSources(
    range: repo.StatsRange,
    breakdown: StatsBreakdown,
  ): Promise<TrafficSourceRow[]> {
    const [visits, signups, buyers, revenue] = await Promise.all([
      repo.visitsBySource(this.db, range, breakdown),
      repo.membersBySource(this.db, range, breakdown, 'signup_date'),
      repo.membersBySource(this.db, range, breakdown, 'first_purchase_at'),
      repo.revenueBySource(this.db, range, breakdown),
    ]);
    const table = new Map<string, TrafficSourceRow>();
    const row = (network: string, value: string) => {
      const key = JSON.stringify([network, value]);
      let found = table.get(key);
      if (!found) {
        found = {
          network: network || null,
          value: value || null,
          visits: 0,
          signups: 0,
          buyers: 0,
          revenue: {},
        };
        table.set(key, found);
      }
      return found;
    };
    for (const item of visits) row(item.network, item.value).visits += item.n;
    for (const item of signups) row(item.network, item.value).signups += item.n;
    for (const item of buyers) row(item.network, item.value).buyers += item.n;
    for (const item of revenue) add(row(item.network, item.value).revenue, item.currency, item.cents);
    return [...table.values()].sort(
      (a, b) =>
        b.signups - a.signups ||
        b.visits - a.visits ||
        (a.network ?? '').localeCompare(b.network ?? '') ||
        (a.value ?? '').localeCompare(b.value ?? ''),
    );
  }

  /** One of the dashboard's tables as CSV; revenue in one decimal column per currency. */
  async csv(query: StatsQuery, table: 'days' | 'trafficsources'): Promise<string> {
    const stats = await this.stats(query);
    const rows = table === 'days' ? stats.days : stats.trafficsources;
    const currencies = [...new Set(rows.flatMap((row) => Object.keys(row.revenue)))].sort();
    const money = (revenue: Record<string, number>) =>
      currencies.map((currency) => ((revenue[currency] ?? 0) / 100).toFixed(2));
    const revenueHeads = currencies.map((currency) => `revenue_${currency}`);
    // Refunds and chargebacks as their own columns, for the currencies they happened in.
    const reversalCurrencies = [
      ...new Set(stats.days.flatMap((day) => [...Object.keys(day.refunds), ...Object.keys(day.chargebacks)])),
    ].sort();
    if (table === 'days') {
      return toCsv([
        [
          'date',
          'signups',
          'activations',
          'first_purchases',
          'orders',
          ...revenueHeads,
          'messages_in',
          'replies_out',
          'median_reply_seconds',
          'active_members',
          ...reversalCurrencies.map((currency) => `refunds_${currency}`),
          ...reversalCurrencies.map((currency) => `chargebacks_${currency}`),
        ],
        ...stats.days.map((day) => [
          day.date,
          day.signups,
          day.activations,
          day.first_purchases,
          day.orders,
          ...money(day.revenue),
          day.messages_in,
          day.replies_out,
          day.median_reply_seconds,
          day.active_members,
          ...reversalCurrencies.map((currency) => ((day.refunds[currency] ?? 0) / 100).toFixed(2)),
          ...reversalCurrencies.map((currency) => ((day.chargebacks[currency] ?? 0) / 100).toFixed(2)),
        ]),
      ]);
    }
    return toCsv([
      [
        'network',
        stats.breakdown === 'network' ? 'value' : stats.breakdown,
        'visits',
        'signups',
        'buyers',
        ...revenueHeads,
      ],
      ...stats.trafficsources.map((row) => [
        row.network,
        row.value,
        row.visits,
        row.signups,
        row.buyers,
        ...money(row.revenue),
      ]),
    ]);
  }
}
