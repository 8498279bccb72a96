import type {
  CreateTrafficCost,
  StatsBreakdown,
  StatsCohort,
  StatsDay,
  StatsExportQuery,
  StatsGranularity,
  StatsPeriod,
  StatsQuery,
  StatsResponse,
  StatsTotals,
  TrafficCost,
  TrafficSourceRow,
} from '#contract/admin-stats.ts';
import type { Database } from '#server/db/client.ts';
import type { TrafficCostRow } from '#server/db/schema/tracking.ts';
import { type Clock, systemClock } from '#server/lib/clock.ts';
import { toCsv } from '#server/lib/csv.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import { ReplyNumbersService, type ReplyScope, type StaffReplyNumbers } from './replies.service.ts';
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

function toCost(row: TrafficCostRow): TrafficCost {
  return {
    id: row.id,
    site: row.siteId,
    network: row.network,
    from: row.fromDay,
    to: row.toDay,
    currency: row.currency,
    amount_cents: row.amountCents,
  };
}

/** The first day of a day's week (Monday) or month. */
function periodOf(day: string, granularity: StatsGranularity): string {
  if (granularity === 'day') return day;
  if (granularity === 'month') return `${day.slice(0, 7)}-01`;
  const at = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(at).getUTCDay() + 6) % 7;
  return new Date(at - weekday * dayMs).toISOString().slice(0, 10);
}

/** The range's weeks (from Monday) or months, each cut to the range: the spans their heads are counted in. */
export function periodSpans(range: { from: string; to: string }, unit: 'week' | 'month'): repo.DaySpan[] {
  const spans: repo.DaySpan[] = [];
  for (const day of daysOf(range.from, range.to)) {
    const last = spans.at(-1);
    if (last && periodOf(last.first, unit) === periodOf(day, unit)) last.last = day;
    else spans.push({ first: day, last: day });
  }
  return spans;
}

/** The numbers of the back office's dashboard and its traffic-source table. */
export class StatsService {
  private readonly replies: ReplyNumbersService;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {
    this.replies = new ReplyNumbersService(db, clock);
  }

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
      return {
        ...base,
        granularity: query.granularity,
        days: [...days.values()],
        trafficsources: [],
        totals: emptyTotals(),
        cohorts: [],
        periods: [],
        operators: [],
        profiles: [],
        winback: { issued: 0, redeemed: 0, revenue_cents: {} },
      };

    const [
      signups,
      activations,
      firstPurchases,
      orders,
      partlyRefunded,
      reversals,
      { messages, active },
      trafficsources,
      { heads, periodHeads },
      cohorts,
      replies,
      winback,
    ] = await Promise.all([
      repo.membersPerDay(this.db, range, 'signup_date'),
      repo.membersPerDay(this.db, range, 'activated_at'),
      repo.membersPerDay(this.db, range, 'first_purchase_at'),
      repo.ordersPerDay(this.db, range),
      repo.partlyRefundedPerDay(this.db, range),
      repo.reversalsPerDay(this.db, range),
      this.messagesAndActive(range),
      this.trafficSources(range, query.breakdown, query.site === undefined),
      this.heads(range, query.granularity),
      this.cohorts(range),
      this.replies.everyone({ from: range.from, to: range.to, siteIds: range.siteIds }),
      repo.winbackResults(this.db, range),
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
    const winbackRevenue: Money = {};
    for (const row of winback.redeemed) add(winbackRevenue, row.currency, row.cents);
    return {
      ...base,
      granularity: query.granularity,
      days: list,
      trafficsources,
      totals,
      cohorts,
      periods: this.periods(range, list, query.granularity, periodHeads),
      operators: replies.operators.map(({ staff, replies: count, earned_credits }) => ({
        staff: { id: staff.id, name: staff.name },
        replies: count,
        earned_credits,
      })),
      profiles: replies.profiles,
      winback: {
        issued: winback.issued,
        redeemed: winback.redeemed.reduce((total, row) => total + row.n, 0),
        revenue_cents: winbackRevenue,
      },
    };
  }

  /**
   * The totals per day, week or month: money and orders summed from the days, paying and active
   * members counted once per period (a member active on two days of a week is one of that week's).
   */
  private periods(
    range: repo.StatsRange,
    days: StatsDay[],
    granularity: StatsGranularity,
    heads: Awaited<ReturnType<StatsService['heads']>>['periodHeads'],
  ): StatsPeriod[] {
    const paying = heads.paying;
    // Per day the active members are the days' own.
    const active = heads.active ?? days.map((day) => ({ period: day.date, n: day.active_members }));
    const periods = new Map<string, StatsPeriod>();
    for (const day of days) {
      const key = periodOf(day.date, granularity);
      let found = periods.get(key);
      if (!found) {
        found = {
          // A week or month that starts before the range shows the range's first day.
          period: key < range.from ? range.from : key,
          revenue_cents: {},
          refunds_cents: {},
          chargebacks_cents: {},
          orders: 0,
          paying_members: 0,
          active_members: 0,
          arpu_cents: {},
          arppu_cents: {},
        };
        periods.set(key, found);
      }
      found.orders += day.orders;
      for (const [currency, cents] of Object.entries(day.revenue)) add(found.revenue_cents, currency, cents);
      for (const [currency, cents] of Object.entries(day.refunds)) add(found.refunds_cents, currency, cents);
      for (const [currency, cents] of Object.entries(day.chargebacks))
        add(found.chargebacks_cents, currency, cents);
    }
    for (const row of paying) {
      const found = periods.get(periodOf(row.period, granularity));
      if (found) found.paying_members = row.paying;
    }
    for (const row of active) {
      const found = periods.get(periodOf(row.period, granularity));
      if (found) found.active_members = row.n;
    }
    return [...periods.values()].map((period) => ({
      ...period,
      arpu_cents: perHead(period.revenue_cents, period.active_members),
      arppu_cents: perHead(period.revenue_cents, period.paying_members),
    }));
  }

  /**
   * The range's paying and active members, and per week or month (per day the active members are
   * the days' own): asked for with the rest of a call's queries, not after them.
   */
  private async heads(range: repo.StatsRange, granularity: StatsGranularity) {
    const whole = { first: range.from, last: range.to };
    const periods = granularity === 'day' ? [] : periodSpans(range, granularity);
    const [paying, active, periodPaying] = await Promise.all([
      repo.payingMembers(this.db, range),
      this.activeMembers(range.siteIds, [whole, ...periods]),
      granularity === 'day'
        ? repo.payingPerDay(this.db, range)
        : repo.ordersPerPeriod(this.db, range, granularity),
    ]);
    return {
      heads: { paying, active: active(whole) },
      periodHeads: {
        paying: periodPaying,
        active:
          granularity === 'day' ? null : periods.map((span) => ({ period: span.first, n: active(span) })),
      },
    };
  }

  /** The last closed day: it ended an hour ago or more (a transaction begun before midnight may still write to it). */
  private lastClosedDay(): string {
    return new Date(this.clock.now().getTime() - hourMs - dayMs).toISOString().slice(0, 10);
  }

  /**
   * Members active at least once in each span of days: the count of its closed days stored
   * (stats_active_spans, filled the first time a span is asked for), plus the members active on its
   * open days who were not on its closed ones (decision 065).
   */
  private async activeMembers(
    siteIds: number[],
    spans: repo.DaySpan[],
  ): Promise<(span: repo.DaySpan) => number> {
    const lastClosed = this.lastClosedDay();
    const key = (first: string, last: string) => `${first}/${last}`;
    const closedPart = (span: repo.DaySpan) =>
      span.first <= lastClosed
        ? { first: span.first, last: span.last < lastClosed ? span.last : lastClosed }
        : null;
    const closed = spans.flatMap((span) => closedPart(span) ?? []);
    const open = spans.flatMap((span) =>
      span.last > lastClosed
        ? [{ ...span, openFrom: span.first > lastClosed ? span.first : nextDay(lastClosed) }]
        : [],
    );
    await repo.fillActiveSpans(this.db, siteIds, closed);
    const [stored, live] = await Promise.all([
      repo.storedActiveSpans(this.db, siteIds, closed),
      repo.openActiveSpans(this.db, siteIds, open),
    ]);
    const storedBy = new Map(stored.map((row) => [key(row.first, row.last), row.n]));
    const liveBy = new Map(live.map((row) => [key(row.first, row.last), row.n]));
    return (span) => {
      const part = closedPart(span);
      return (
        (part ? (storedBy.get(key(part.first, part.last)) ?? 0) : 0) +
        (liveBy.get(key(span.first, span.last)) ?? 0)
      );
    };
  }

  /** The staff's replies per staff member over a scope (the operator console's numbers). */
  operatorNumbers(scope: ReplyScope): Promise<StaffReplyNumbers[]> {
    return this.replies.operators(scope);
  }

  // ---- what was spent on traffic

  async costs(siteId: number | undefined): Promise<TrafficCost[]> {
    return (await repo.listCosts(this.db, siteId)).map(toCost);
  }

  async addCost(input: CreateTrafficCost): Promise<TrafficCost> {
    if (input.site !== null && !(await repo.allSiteIds(this.db)).includes(input.site))
      throw new NotFoundError();
    return toCost(
      await repo.insertCost(this.db, {
        siteId: input.site,
        network: input.network,
        fromDay: input.from,
        toDay: input.to,
        currency: input.currency,
        amountCents: input.amount_cents,
        createdAt: this.clock.now(),
      }),
    );
  }

  async removeCost(id: number): Promise<void> {
    if (!(await repo.deleteCost(this.db, id))) throw new NotFoundError();
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
    const lastClosed = this.lastClosedDay();
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
    everySite: boolean,
  ): Promise<TrafficSourceRow[]> {
    const [visits, members, revenue, costs] = await Promise.all([
      repo.visitsBySource(this.db, range, breakdown),
      repo.membersBySource(this.db, range, breakdown),
      repo.revenueBySource(this.db, range, breakdown),
      breakdown === 'network' ? repo.costsInRange(this.db, range, everySite) : Promise.resolve([]),
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
          activations: 0,
          buyers: 0,
          revenue: {},
          revenue_per_signup_cents: {},
          cost_cents: {},
          return_ratio: null,
        };
        table.set(key, found);
      }
      return found;
    };
    for (const item of visits) row(item.network, item.value).visits += item.n;
    for (const item of members) {
      const found = row(item.network, item.value);
      found.signups += item.signups;
      found.activations += item.activations;
      found.buyers += item.buyers;
    }
    for (const item of revenue) add(row(item.network, item.value).revenue, item.currency, item.cents);
    for (const item of costs) add(row(item.network, item.network).cost_cents, item.currency, item.cents);
    for (const found of table.values()) {
      found.revenue_per_signup_cents = perHead(found.revenue, found.signups);
      const spent = Object.entries(found.cost_cents);
      const earned = Object.keys(found.revenue);
      // A return only in one currency: revenue in another cannot be set against the cost.
      if (spent.length === 1 && spent[0]![1] > 0 && earned.every((currency) => currency === spent[0]![0])) {
        const [currency, cents] = spent[0]!;
        found.return_ratio = Math.round(((found.revenue[currency] ?? 0) / cents) * 100) / 100;
      }
    }
    return [...table.values()].sort(
      (a, b) =>
        b.signups - a.signups ||
        b.visits - a.visits ||
        (a.network ?? '').localeCompare(b.network ?? '') ||
        (a.value ?? '').localeCompare(b.value ?? ''),
    );
  }

  /** One of the dashboard's tables as CSV; revenue in one decimal column per currency. */
  async csv(query: StatsQuery, table: StatsExportQuery['table']): Promise<string> {
    const stats = await this.stats(query);
    if (table === 'periods' || table === 'cohorts' || table === 'operators' || table === 'profiles')
      return moreCsv(stats, table);
    const rows = table === 'days' ? stats.days : stats.trafficsources;
    const currencies = [
      ...new Set(
        rows.flatMap((row) => [
          ...Object.keys(row.revenue),
          ...('cost_cents' in row ? Object.keys(row.cost_cents) : []),
        ]),
      ),
    ].sort();
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
        'activations',
        ...currencies.map((currency) => `revenue_per_signup_${currency}`),
        // What was spent is entered per network: no cost columns within a network.
        ...(stats.breakdown === 'network'
          ? [...currencies.map((currency) => `cost_${currency}`), 'return_ratio']
          : []),
      ],
      ...stats.trafficsources.map((row) => [
        row.network,
        row.value,
        row.visits,
        row.signups,
        row.buyers,
        ...money(row.revenue),
        row.activations,
        ...money(row.revenue_per_signup_cents),
        ...(stats.breakdown === 'network' ? [...money(row.cost_cents), row.return_ratio] : []),
      ]),
    ]);
  }
}

/** The money columns of some rows: one decimal column per currency any of them has. */
function moneyColumns<T>(rows: T[], heads: [string, (row: T) => Money][]) {
  const currencies = [
    ...new Set(rows.flatMap((row) => heads.flatMap(([, pick]) => Object.keys(pick(row))))),
  ].sort();
  return {
    heads: heads.flatMap(([name]) => currencies.map((currency) => `${name}_${currency}`)),
    values: (row: T) =>
      heads.flatMap(([, pick]) =>
        currencies.map((currency) => ((pick(row)[currency] ?? 0) / 100).toFixed(2)),
      ),
  };
}

function moreCsv(stats: StatsResponse, table: 'periods' | 'cohorts' | 'operators' | 'profiles'): string {
  if (table === 'periods') {
    const columns = moneyColumns(stats.periods, [
      ['revenue', (row) => row.revenue_cents],
      ['refunds', (row) => row.refunds_cents],
      ['chargebacks', (row) => row.chargebacks_cents],
      ['arpu', (row) => row.arpu_cents],
      ['arppu', (row) => row.arppu_cents],
    ]);
    return toCsv([
      [stats.granularity, 'orders', 'paying_members', 'active_members', ...columns.heads],
      ...stats.periods.map((row) => [
        row.period,
        row.orders,
        row.paying_members,
        row.active_members,
        ...columns.values(row),
      ]),
    ]);
  }
  if (table === 'cohorts') {
    const columns = moneyColumns(stats.cohorts, [
      ['revenue_per_member_7d', (row) => row.revenue_per_member_7d_cents],
      ['revenue_per_member_30d', (row) => row.revenue_per_member_30d_cents],
      ['revenue_per_member_90d', (row) => row.revenue_per_member_90d_cents],
    ]);
    return toCsv([
      [
        'week',
        'signups',
        'paid_within_1d',
        'paid_within_7d',
        'paid_within_30d',
        'median_hours_to_first_purchase',
        ...columns.heads,
      ],
      ...stats.cohorts.map((row) => [
        row.week,
        row.signups,
        row.paid_within_1d,
        row.paid_within_7d,
        row.paid_within_30d,
        row.median_hours_to_first_purchase,
        ...columns.values(row),
      ]),
    ]);
  }
  if (table === 'operators')
    return toCsv([
      ['staff_id', 'name', 'replies', 'earned_credits'],
      ...stats.operators.map((row) => [row.staff.id, row.staff.name, row.replies, row.earned_credits]),
    ]);
  return toCsv([
    ['profile_id', 'name', 'replies', 'earned_credits'],
    ...stats.profiles.map((row) => [row.profile.id, row.profile.name, row.replies, row.earned_credits]),
  ]);
}
