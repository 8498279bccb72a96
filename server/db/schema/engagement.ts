import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { profiles, users } from './members.ts';
import { sites } from './sites.ts';

export const openerStepKinds = ['like', 'visit', 'message'] as const;
export type OpenerStepKind = (typeof openerStepKinds)[number];
export type OpenerStep = { afterMinutes: number; kind: OpenerStepKind; text: string | null };

/**
 * An opener script: what a site's fictional profiles do for a new member of one language once the
 * member has confirmed the address — ordered steps, each a job on the one runner.
 */
export const openerScripts = pgTable(
  'opener_scripts',
  {
    id: serial().primaryKey(),
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    language: text().notNull(),
    active: boolean().notNull().default(false),
    steps: jsonb().$type<OpenerStep[]>().notNull(),
    /** Only profiles of the member's own country may send. */
    sameCountry: boolean().notNull().default(true),
    /** Only profiles of the gender the member looks for, who look for the member's. */
    matchesSeeking: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('opener_scripts_site_idx').on(table.siteId, table.language)],
);

export const openerStopReasons = ['replied', 'paid', 'blocked', 'opted_out', 'no_profile'] as const;
export type OpenerStopReason = (typeof openerStopReasons)[number];

/**
 * One member's run of a script: the fictional profile that does every step (chosen once, by the
 * first step that runs), and why the run stopped. One run per script and member.
 */
export const openerRuns = pgTable(
  'opener_runs',
  {
    id: serial().primaryKey(),
    scriptId: integer()
      .notNull()
      .references(() => openerScripts.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    profileId: integer().references(() => profiles.id, { onDelete: 'set null' }),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    /** The first step done: the replies and payments counted for the script are after it. */
    firstContactAt: timestamp({ withTimezone: true }),
    stoppedAt: timestamp({ withTimezone: true }),
    stopReason: text({ enum: openerStopReasons }),
  },
  (table) => [
    uniqueIndex('opener_runs_script_member_unique').on(table.scriptId, table.userId),
    index('opener_runs_member_idx').on(table.userId),
  ],
);

/** A step of a run that has run: done or skipped, once (the key of the step's job, as a row). */
export const openerStepRuns = pgTable(
  'opener_step_runs',
  {
    runId: integer()
      .notNull()
      .references(() => openerRuns.id, { onDelete: 'cascade' }),
    step: integer().notNull(),
    outcome: text({ enum: ['done', 'skipped'] }).notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.step] })],
);

export const campaignStatuses = ['queued', 'sending', 'done'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

export type CampaignSegment = {
  site: number;
  country?: string | undefined;
  gender?: 'male' | 'female' | undefined;
  minAge?: number | undefined;
  maxAge?: number | undefined;
  paidUser?: boolean | undefined;
  signedUpAfter?: string | undefined;
  activeAfter?: string | undefined;
  hasPhoto?: boolean | undefined;
};

/** A mass message: one text from one fictional profile to a segment of a site's members. */
export const campaigns = pgTable(
  'campaigns',
  {
    id: serial().primaryKey(),
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    text: text().notNull(),
    segment: jsonb().$type<CampaignSegment>().notNull(),
    status: text({ enum: campaignStatuses }).notNull().default('queued'),
    /** The members the segment held when the campaign was queued (its recipients). */
    count: integer().notNull(),
    createdBy: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('campaigns_site_idx').on(table.siteId, table.createdAt)],
);

/**
 * A campaign's recipients, fixed when it is queued: each is sent or skipped once — the unique
 * (campaign, member) pair is what makes a second send impossible, whatever the instances.
 */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    campaignId: integer()
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Which of the campaign's jobs sends to this member (200 members a job). */
    batch: integer().notNull(),
    status: text({ enum: ['pending', 'sent', 'skipped'] })
      .notNull()
      .default('pending'),
    messageId: integer(),
    at: timestamp({ withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.campaignId, table.userId] }),
    index('campaign_recipients_batch_idx').on(table.campaignId, table.batch),
  ],
);
