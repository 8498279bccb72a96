import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import {
  type CampaignSegment,
  campaignRecipients,
  campaigns,
  type OpenerStep,
  type OpenerStopReason,
  openerRuns,
  openerScripts,
  openerStepRuns,
} from '#server/db/schema/engagement.ts';
import { type ProfileRow, profiles, type UserRow, users } from '#server/db/schema/members.ts';

export type ScriptRow = typeof openerScripts.$inferSelect;
export type RunRow = typeof openerRuns.$inferSelect;
export type CampaignRow = typeof campaigns.$inferSelect;

/**
 * The notification switches that mean "leave me alone": the one-click unsubscribe of a mail and a
 * spam complaint. A member who gave either gets no automated message (decision 043).
 */
export const optOutReasons = ['unsubscribe', 'spam_complaint'] as const;

const optedOut = (user: typeof users) =>
  sql<boolean>`jsonb_exists_any(${user.notificationsDisabled}, array[${sql.join(
    optOutReasons.map((reason) => sql`${reason}`),
    sql`, `,
  )}]::text[])`;

/*
 * The subqueries below name their tables and columns themselves: in a one-table select Drizzle
 * writes a column without its table, which inside a subquery would bind to the subquery's own.
 */

/** A block between the two profiles, either way. */
const blockedEitherWay = (a: SQL | number, b: SQL | number) =>
  sql<boolean>`exists (select 1 from blocks bw where (bw.blocker_profile_id = ${a}::int and bw.blocked_profile_id = ${b}::int) or (bw.blocker_profile_id = ${b}::int and bw.blocked_profile_id = ${a}::int))`;

/** The member (profile `member`) wrote to profile `other`, at or after `since` when given. */
const wroteTo = (member: SQL | number, other: SQL | number, since?: SQL) =>
  sql<boolean>`exists (select 1 from messages wm join conversations wc on wc.id = wm.conversation_id
    where wm.sender_profile_id = ${member}::int
      and wc.low_profile_id = least(${member}::int, ${other}::int)
      and wc.high_profile_id = greatest(${member}::int, ${other}::int)
      ${since ? sql`and wm.created_at >= ${since}` : sql``})`;

// ---- opener scripts

export async function insertScript(
  db: Executor,
  values: typeof openerScripts.$inferInsert,
): Promise<ScriptRow> {
  const [row] = await db.insert(openerScripts).values(values).returning();
  return row!;
}

export async function updateScript(
  db: Executor,
  id: number,
  values: Partial<typeof openerScripts.$inferInsert>,
): Promise<ScriptRow | undefined> {
  const [row] = await db.update(openerScripts).set(values).where(eq(openerScripts.id, id)).returning();
  return row;
}

export async function deleteScript(db: Executor, id: number): Promise<boolean> {
  const deleted = await db
    .delete(openerScripts)
    .where(eq(openerScripts.id, id))
    .returning({ id: openerScripts.id });
  return deleted.length > 0;
}

export async function findScript(db: Executor, id: number): Promise<ScriptRow | undefined> {
  const [row] = await db.select().from(openerScripts).where(eq(openerScripts.id, id));
  return row;
}

/** The scripts (of one site) with their results, in one statement. */
export async function scriptsWithResults(db: Executor, siteId: number | undefined) {
  const sent = sql<number>`(select count(*)::int from opener_runs r where r.script_id = opener_scripts.id and r.first_contact_at is not null)`;
  const replied = sql<number>`(select count(*)::int from opener_runs r join profiles mp on mp.user_id = r.user_id
    where r.script_id = opener_scripts.id and r.first_contact_at is not null and r.profile_id is not null
      and ${wroteTo(sql`mp.id`, sql`r.profile_id`, sql`r.first_contact_at`)})`;
  const paid = sql<number>`(select count(*)::int from opener_runs r join users u on u.id = r.user_id
    where r.script_id = opener_scripts.id and r.first_contact_at is not null
      and u.first_purchase_at >= r.first_contact_at and u.first_purchase_at < r.first_contact_at + interval '7 days')`;
  return db
    .select({ script: openerScripts, sent, replied, paid })
    .from(openerScripts)
    .where(siteId === undefined ? undefined : eq(openerScripts.siteId, siteId))
    .orderBy(asc(openerScripts.siteId), asc(openerScripts.language), asc(openerScripts.id));
}

export function activeScriptsFor(db: Executor, siteId: number, language: string): Promise<ScriptRow[]> {
  return db
    .select()
    .from(openerScripts)
    .where(
      and(
        eq(openerScripts.siteId, siteId),
        eq(openerScripts.language, language),
        eq(openerScripts.active, true),
      ),
    )
    .orderBy(asc(openerScripts.id));
}

/** The member's run of a script, made once (a second activation finds the first). */
export async function ensureRun(db: Executor, scriptId: number, userId: number, at: Date): Promise<void> {
  await db.insert(openerRuns).values({ scriptId, userId, startedAt: at }).onConflictDoNothing();
}

export async function findRun(db: Executor, scriptId: number, userId: number): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(openerRuns)
    .where(and(eq(openerRuns.scriptId, scriptId), eq(openerRuns.userId, userId)));
  return row;
}

/** The run's row, locked until the step's transaction ends: a step of the run at a time. */
export async function lockRun(tx: Executor, runId: number): Promise<RunRow | undefined> {
  const [row] = await tx.select().from(openerRuns).where(eq(openerRuns.id, runId)).for('update');
  return row;
}

/** The run's profile, set by the first step that gets here; the others read the one it set. */
export async function setRunProfile(db: Executor, runId: number, profileId: number): Promise<void> {
  await db
    .update(openerRuns)
    .set({ profileId })
    .where(and(eq(openerRuns.id, runId), isNull(openerRuns.profileId)));
}

export async function stopRun(
  db: Executor,
  runId: number,
  reason: OpenerStopReason,
  at: Date,
): Promise<void> {
  await db
    .update(openerRuns)
    .set({ stoppedAt: at, stopReason: reason })
    .where(and(eq(openerRuns.id, runId), isNull(openerRuns.stoppedAt)));
}

export async function markFirstContact(tx: Executor, runId: number, at: Date): Promise<void> {
  await tx
    .update(openerRuns)
    .set({ firstContactAt: sql`coalesce(${openerRuns.firstContactAt}, ${at})` })
    .where(eq(openerRuns.id, runId));
}

/** A step's outcome, once: false when the step has run already (another instance, a retry). */
export async function recordStep(
  db: Executor,
  step: { runId: number; step: number; outcome: 'done' | 'skipped'; at: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(openerStepRuns)
    .values(step)
    .onConflictDoNothing()
    .returning({ runId: openerStepRuns.runId });
  return inserted.length > 0;
}

/**
 * A fictional profile that may contact this member: active, of the site's countries (the member's
 * own when `sameCountry`), of the gender the member seeks and seeking the member's (when
 * `matchesSeeking`), with no block either way. Spread over the fitting profiles by a hash of the
 * pair, so one member always meets the same one and the members of a day meet several.
 */
export async function fittingProfile(
  db: Executor,
  member: ProfileRow,
  rule: { countries: string[]; sameCountry: boolean; matchesSeeking: boolean },
): Promise<ProfileRow | undefined> {
  const seeks = member.seeking && member.seeking !== 'both' ? [member.seeking] : null;
  const [row] = await db
    .select()
    .from(profiles)
    .where(
      and(
        eq(profiles.fictional, true),
        eq(profiles.status, 'active'),
        rule.sameCountry
          ? eq(profiles.country, member.country)
          : inArray(profiles.country, rule.countries.length > 0 ? rule.countries : [member.country]),
        rule.matchesSeeking && seeks ? inArray(profiles.gender, seeks) : undefined,
        rule.matchesSeeking && member.gender
          ? sql`(${profiles.seeking} is null or ${profiles.seeking} in ('both', ${member.gender}))`
          : undefined,
        sql`not ${blockedEitherWay(sql`profiles.id`, member.id)}`,
      ),
    )
    .orderBy(sql`md5(${profiles.id}::text || ':' || ${member.id}::text)`)
    .limit(1);
  return row;
}

/**
 * Why a member may get no more automated contact from this profile, read in the step's or send's
 * transaction: they wrote to it, paid, a block stands either way, or they opted out. Null: go on.
 */
export async function stopReasonFor(
  db: Executor,
  member: { userId: number; profileId: number },
  profileId: number,
): Promise<OpenerStopReason | null> {
  const [row] = await db
    .select({
      replied: wroteTo(member.profileId, profileId),
      paid: sql<boolean>`${users.paidUser} or ${users.firstPurchaseAt} is not null`,
      blocked: blockedEitherWay(member.profileId, profileId),
      optedOut: optedOut(users),
    })
    .from(users)
    .where(eq(users.id, member.userId));
  if (!row) return 'opted_out';
  if (row.replied) return 'replied';
  if (row.paid) return 'paid';
  if (row.blocked) return 'blocked';
  if (row.optedOut) return 'opted_out';
  return null;
}

/** Whether a block stands either way or the member opted out: a mass message skips them. */
export async function mustSkip(
  db: Executor,
  member: { userId: number; profileId: number },
  profileId: number,
) {
  const [row] = await db
    .select({ blocked: blockedEitherWay(member.profileId, profileId), optedOut: optedOut(users) })
    .from(users)
    .where(eq(users.id, member.userId));
  return !row || row.blocked || row.optedOut;
}

// ---- mass messages

/** The members a segment holds: active members of the site, with an active profile, by its filters. */
function segmentWhere(segment: CampaignSegment, today: string) {
  return and(
    eq(users.siteId, segment.site),
    eq(users.role, 'member'),
    eq(users.status, 'active'),
    eq(profiles.status, 'active'),
    eq(profiles.fictional, false),
    segment.country ? eq(profiles.country, segment.country) : undefined,
    segment.gender ? eq(profiles.gender, segment.gender) : undefined,
    segment.minAge !== undefined
      ? sql`${profiles.birthdate} <= ${today}::date - make_interval(years => ${segment.minAge}::int)`
      : undefined,
    segment.maxAge !== undefined
      ? sql`${profiles.birthdate} > ${today}::date - make_interval(years => ${segment.maxAge + 1}::int)`
      : undefined,
    segment.paidUser !== undefined ? eq(users.paidUser, segment.paidUser) : undefined,
    segment.signedUpAfter ? sql`${users.signupDate} >= ${segment.signedUpAfter}::date` : undefined,
    segment.activeAfter ? sql`${profiles.lastActiveAt} >= ${segment.activeAfter}::date` : undefined,
    segment.hasPhoto === undefined
      ? undefined
      : segment.hasPhoto
        ? sql`exists (select 1 from photos ph where ph.profile_id = profiles.id)`
        : sql`not exists (select 1 from photos ph where ph.profile_id = profiles.id)`,
  );
}

export async function countSegment(db: Executor, segment: CampaignSegment, today: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(segmentWhere(segment, today));
  return row?.count ?? 0;
}

export async function insertCampaign(
  db: Executor,
  values: typeof campaigns.$inferInsert,
): Promise<CampaignRow> {
  const [row] = await db.insert(campaigns).values(values).returning();
  return row!;
}

/** The segment's members as the campaign's recipients, `batchSize` to a batch; returns how many. */
export async function insertRecipients(
  db: Executor,
  campaignId: number,
  segment: CampaignSegment,
  today: string,
  batchSize: number,
): Promise<number> {
  const chosen = db
    .select({
      campaignId: sql<number>`${campaignId}::int`.as('campaign_id'),
      userId: sql<number>`${users.id}`.as('user_id'),
      batch: sql<number>`((row_number() over (order by ${users.id})) - 1) / ${batchSize}::int`.as('batch'),
      // insert … select takes every column, in the table's order.
      status: sql<'pending'>`'pending'`.as('status'),
      messageId: sql<number | null>`null::int`.as('message_id'),
      at: sql<Date | null>`null::timestamptz`.as('at'),
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(segmentWhere(segment, today));
  const inserted = await db
    .insert(campaignRecipients)
    .select(chosen)
    .onConflictDoNothing()
    .returning({ userId: campaignRecipients.userId });
  return inserted.length;
}

export async function setCampaignCount(db: Executor, campaignId: number, count: number): Promise<void> {
  await db.update(campaigns).set({ count }).where(eq(campaigns.id, campaignId));
}

export async function findCampaign(db: Executor, id: number): Promise<CampaignRow | undefined> {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return row;
}

/** The members of one batch still waiting for the message, with their profiles. */
export function pendingOfBatch(
  db: Executor,
  campaignId: number,
  batch: number,
): Promise<{ user: UserRow; profile: ProfileRow }[]> {
  return db
    .select({ user: users, profile: profiles })
    .from(campaignRecipients)
    .innerJoin(users, eq(users.id, campaignRecipients.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(
      and(
        eq(campaignRecipients.campaignId, campaignId),
        eq(campaignRecipients.batch, batch),
        eq(campaignRecipients.status, 'pending'),
      ),
    )
    .orderBy(asc(campaignRecipients.userId));
}

/**
 * Takes a recipient's turn, in the send's transaction: true once, for the one send that may write
 * the message; false when it is sent or skipped already (another instance, a retry).
 */
export async function takeRecipient(
  db: Executor,
  campaignId: number,
  userId: number,
  outcome: 'sent' | 'skipped',
  at: Date,
): Promise<boolean> {
  const taken = await db
    .update(campaignRecipients)
    .set({ status: outcome, at })
    .where(
      and(
        eq(campaignRecipients.campaignId, campaignId),
        eq(campaignRecipients.userId, userId),
        eq(campaignRecipients.status, 'pending'),
      ),
    )
    .returning({ userId: campaignRecipients.userId });
  return taken.length > 0;
}

export async function setRecipientMessage(
  db: Executor,
  campaignId: number,
  userId: number,
  messageId: number,
): Promise<void> {
  await db
    .update(campaignRecipients)
    .set({ messageId })
    .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.userId, userId)));
}

export async function markSending(db: Executor, campaignId: number): Promise<void> {
  await db
    .update(campaigns)
    .set({ status: 'sending' })
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, 'queued')));
}

/** Done once no recipient waits any more (whichever batch ends last says so). */
export async function finishIfDrained(db: Executor, campaignId: number, at: Date): Promise<void> {
  await db
    .update(campaigns)
    .set({ status: 'done', finishedAt: at })
    .where(
      and(
        eq(campaigns.id, campaignId),
        sql`${campaigns.status} <> 'done'`,
        sql`not exists (select 1 from campaign_recipients cr where cr.campaign_id = ${campaignId}::int and cr.status = 'pending')`,
      ),
    );
}

/** The campaigns, newest first, with their counts, in one statement. */
export function campaignsWithCounts(db: Executor, id: number | undefined) {
  const counted = (status: 'sent' | 'skipped') =>
    sql<number>`(select count(*)::int from campaign_recipients r where r.campaign_id = campaigns.id and r.status = ${status})`;
  const replied = sql<number>`(select count(*)::int from campaign_recipients r
    join messages m on m.id = r.message_id
    join profiles mp on mp.user_id = r.user_id
    where r.campaign_id = campaigns.id and r.status = 'sent'
      and exists (select 1 from messages a where a.conversation_id = m.conversation_id and a.sender_profile_id = mp.id and a.id > m.id))`;
  return db
    .select({
      campaign: campaigns,
      profileName: profiles.name,
      sent: counted('sent'),
      skipped: counted('skipped'),
      replied,
    })
    .from(campaigns)
    .innerJoin(profiles, eq(profiles.id, campaigns.profileId))
    .where(id === undefined ? undefined : eq(campaigns.id, id))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(100);
}

export type { OpenerStep };
