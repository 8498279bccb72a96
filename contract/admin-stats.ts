import { z } from 'zod';
import { idField, idParam } from './common.ts';

/**
 * The back office's numbers (api-contract.md, Staff calls: GET /api/admin/stats.php) and their
 * breakdown by traffic source. Days are UTC days; money is integer cents per currency.
 */

export const statsBreakdownOptions = ['network', 'ref', 'sub1', 'sub2', 'sub3', 'lander'] as const;
export type StatsBreakdown = (typeof statsBreakdownOptions)[number];
export const statsTableOptions = [
  'days',
  'trafficsources',
  'periods',
  'cohorts',
  'operators',
  'profiles',
] as const;
export const statsGranularityOptions = ['day', 'week', 'month'] as const;
export type StatsGranularity = (typeof statsGranularityOptions)[number];
/** The longest range one call covers. */
export const statsMaxDays = 400;

const day = z.iso.date({ error: 'invalid_date' }).describe('YYYY-MM-DD (UTC)');

const statsQueryFields = z.object({
  from: day,
  to: day.describe('YYYY-MM-DD (UTC), included'),
  site: idParam.optional().describe('one site; all sites when left out'),
  breakdown: z
    .enum(statsBreakdownOptions, { error: 'invalid' })
    .default('network')
    .describe('what the traffic-source table is broken down by (within each network)'),
  granularity: z
    .enum(statsGranularityOptions, { error: 'invalid' })
    .default('day')
    .describe('what `periods` are: days, ISO weeks or months'),
});

/** `to` not before `from`, at most statsMaxDays days. */
function withRange<T extends typeof statsQueryFields>(schema: T) {
  return schema
    .refine((query) => query.from <= query.to, { error: 'out_of_range', path: ['to'] })
    .refine((query) => (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 < statsMaxDays, {
      error: 'out_of_range',
      path: ['from'],
    });
}

export const statsQuerySchema = withRange(statsQueryFields);
export type StatsQuery = z.infer<typeof statsQuerySchema>;

export const statsExportQuerySchema = withRange(
  statsQueryFields.extend({
    table: z
      .enum(statsTableOptions, { error: 'invalid' })
      .default('days')
      .describe('which table the CSV holds'),
  }),
);
export type StatsExportQuery = z.infer<typeof statsExportQuerySchema>;

/** Amounts per currency: `{EUR: 12999}` (cents). */
const revenueSchema = z.record(z.string(), z.number().int()).describe('integer cents per currency');

export const statsDaySchema = z.object({
  date: z.string().describe('YYYY-MM-DD'),
  signups: z.number().int().describe('real members who signed up that day'),
  activations: z.number().int().describe('members who confirmed their address (first time) that day'),
  first_purchases: z.number().int().describe('members whose first order was paid that day'),
  orders: z.number().int().describe('paid orders (not wholly refunded or charged back)'),
  revenue: revenueSchema.describe(
    'what the paid orders of the day kept: a partly refunded order counts less its refund; refunds and chargebacks never count',
  ),
  refunds: revenueSchema.describe('refunds asked that day, integer cents per currency'),
  chargebacks: revenueSchema.describe('chargebacks reported that day, integer cents per currency'),
  messages_in: z.number().int().describe('messages of members to fictional profiles'),
  replies_out: z.number().int().describe('messages of fictional profiles to members'),
  median_reply_seconds: z
    .number()
    .int()
    .nullable()
    .describe('median time from the first unanswered member message to the reply; null without replies'),
  active_members: z.number().int().describe('members signed in that day'),
});
export type StatsDay = z.infer<typeof statsDaySchema>;

export const trafficSourceRowSchema = z.object({
  network: z.string().nullable().describe('null: members and visits without a network'),
  value: z
    .string()
    .nullable()
    .describe('the breakdown value within the network (the network itself for breakdown=network)'),
  visits: z.number().int().describe('landing clicks in the range'),
  signups: z.number().int(),
  activations: z.number().int().describe('members who confirmed their address (first time) in the range'),
  buyers: z.number().int().describe('members whose first order was paid in the range (paying)'),
  revenue: revenueSchema,
  revenue_per_signup_cents: revenueSchema.describe('revenue ÷ signups, per currency'),
  cost_cents: revenueSchema.describe(
    'what the admin entered as spent on this network, the part of each period inside the range (network rows only)',
  ),
  return_ratio: z
    .number()
    .nullable()
    .describe(
      'revenue ÷ cost in the cost’s currency (1 = the money back); null without a cost or in mixed currencies',
    ),
});
export type TrafficSourceRow = z.infer<typeof trafficSourceRowSchema>;

export const statsTotalsSchema = z.object({
  revenue_cents: revenueSchema.describe('the range’s revenue per currency (as the days’ revenue)'),
  refunds_cents: revenueSchema,
  chargebacks_cents: revenueSchema,
  orders: z.number().int(),
  paying_members: z.number().int().describe('members with a paid order in the range'),
  active_members: z.number().int().describe('members signed in at least once in the range'),
  arpu_cents: revenueSchema.describe('revenue ÷ active members, per currency'),
  arppu_cents: revenueSchema.describe('revenue ÷ paying members, per currency'),
});
export type StatsTotals = z.infer<typeof statsTotalsSchema>;

export const statsCohortSchema = z.object({
  week: z.string().describe('the Monday (UTC) of the signup week'),
  signups: z.number().int(),
  paid_within_1d: z.number().int().describe('members of the cohort who paid within a day of signing up'),
  paid_within_7d: z.number().int(),
  paid_within_30d: z.number().int(),
  median_hours_to_first_purchase: z
    .number()
    .nullable()
    .describe('of the members who paid; null when none did'),
  revenue_per_member_7d_cents: revenueSchema.describe('paid within 7 days of signing up, ÷ signups'),
  revenue_per_member_30d_cents: revenueSchema,
  revenue_per_member_90d_cents: revenueSchema,
});
export type StatsCohort = z.infer<typeof statsCohortSchema>;

export const statsPeriodSchema = z.object({
  period: z.string().describe('the first day of the day, ISO week (Monday) or month, clipped to the range'),
  revenue_cents: revenueSchema,
  refunds_cents: revenueSchema,
  chargebacks_cents: revenueSchema,
  orders: z.number().int(),
  paying_members: z.number().int().describe('members with a paid order in the period'),
  active_members: z.number().int().describe('members signed in at least once in the period'),
  arpu_cents: revenueSchema,
  arppu_cents: revenueSchema,
});
export type StatsPeriod = z.infer<typeof statsPeriodSchema>;

/** Replies and what members spent after them: one staff member's or one fictional profile's. */
export const replyEarningsSchema = z.object({
  replies: z.number().int().describe('replies written by staff in the range'),
  earned_credits: z
    .number()
    .int()
    .describe(
      'credits members spent in those conversations within 24 h after each reply, up to the profile’s next message',
    ),
});

export const statsOperatorSchema = replyEarningsSchema.extend({
  staff: z.object({ id: z.number().int(), name: z.string() }),
});
export const statsProfileSchema = replyEarningsSchema.extend({
  profile: z.object({ id: z.number().int(), name: z.string() }),
});

export const statsWinbackSchema = z.object({
  issued: z.number().int().describe('win-back codes sent in the range'),
  redeemed: z.number().int().describe('paid orders (kept) with a win-back code sent in the range'),
  revenue_cents: revenueSchema.describe('what those orders kept'),
});

export const statsResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  site: z.number().int().nullable(),
  breakdown: z.enum(statsBreakdownOptions),
  days: z.array(statsDaySchema).describe('every day of the range, oldest first'),
  trafficsources: z.array(trafficSourceRowSchema).describe('most signups first'),
  totals: statsTotalsSchema,
  cohorts: z.array(statsCohortSchema).describe('by signup week within the range, oldest first'),
  granularity: z.enum(statsGranularityOptions),
  periods: z
    .array(statsPeriodSchema)
    .describe('the totals per day, week or month (granularity), oldest first'),
  operators: z.array(statsOperatorSchema).describe('staff who replied in the range, most earned first'),
  profiles: z.array(statsProfileSchema).describe('fictional profiles staff replied as, most earned first'),
  winback: statsWinbackSchema,
});
export type StatsResponse = z.infer<typeof statsResponseSchema>;

// ---- what an admin spent on a traffic source

const costDay = z.iso.date({ error: 'invalid_date' });

export const trafficCostSchema = z.object({
  id: z.number().int(),
  site: z.number().int().nullable().describe('null: spent for every site'),
  network: z.string(),
  from: z.string().describe('YYYY-MM-DD, the first day the money was spent for'),
  to: z.string().describe('YYYY-MM-DD, included'),
  currency: z.string(),
  amount_cents: z.number().int(),
});
export type TrafficCost = z.infer<typeof trafficCostSchema>;

export const trafficCostsQuerySchema = z.object({ site: idParam.optional() });
export const trafficCostsResponseSchema = z.object({ costs: z.array(trafficCostSchema) });

export const createTrafficCostSchema = z
  .object({
    site: idField.nullable().default(null),
    network: z.string().trim().min(1, { error: 'required' }).max(100),
    from: costDay,
    to: costDay,
    currency: z.string().regex(/^[A-Z]{3}$/, { error: 'invalid' }),
    amount_cents: z.number().int().min(0).max(2_000_000_000),
  })
  .refine((body) => body.from <= body.to, { error: 'out_of_range', path: ['to'] })
  .refine((body) => (Date.parse(body.to) - Date.parse(body.from)) / 86_400_000 < 3660, {
    error: 'out_of_range',
    path: ['from'],
  });
export type CreateTrafficCost = z.infer<typeof createTrafficCostSchema>;
export const trafficCostResponseSchema = z.object({ cost: trafficCostSchema });
export const trafficCostRefSchema = z.object({ id: idField });
