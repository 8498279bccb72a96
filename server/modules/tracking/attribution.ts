import type { Executor } from '#server/db/client.ts';
import type { TrafficSource } from '#server/db/schema/members.ts';
import type { AttributionEventKind, PostbackConfig } from '#server/db/schema/sites.ts';
import { postbackSend } from './postbacks.ts';
import * as repo from './tracking.repository.ts';

/**
 * The postback-ready record of what a landing click led to (docs/decisions/018). Each function runs inside the
 * transaction of the event it records (signup, activation, the first paid order), so the record and
 * the event commit together; the unique index on (site, click, event) keeps one per click and event.
 */

/** The values a postback URL template may hold; each is URL-encoded where it is put. */
export type PostbackValues = {
  click_id: string;
  event: AttributionEventKind;
  amount: string;
  currency: string;
};

export function renderPostbackUrl(template: string, values: PostbackValues): string {
  return template.replace(/\{(click_id|event|amount|currency)\}/g, (_, name: keyof PostbackValues) =>
    encodeURIComponent(values[name]),
  );
}

/** Cents as the decimal amount networks expect (`1299` → `12.99`). */
export function decimalAmount(cents: number | null): string {
  return cents === null ? '' : (cents / 100).toFixed(2);
}

/** The site's postback for the click's network and this event, if there is one. */
export function postbackFor(
  postbacks: PostbackConfig[],
  network: string | undefined,
  event: AttributionEventKind,
): PostbackConfig | undefined {
  if (!network) return undefined;
  const wanted = network.toLowerCase();
  return postbacks.find((entry) => entry.network.toLowerCase() === wanted && entry.events.includes(event));
}

async function record(
  tx: Executor,
  member: { userId: number; siteId: number; trafficsource: TrafficSource | null },
  event: AttributionEventKind,
  at: Date,
  amount: { cents: number; currency: string } | null,
): Promise<boolean> {
  const clickId = member.trafficsource?.click_id;
  if (!clickId) return false;
  const network = member.trafficsource?.network;
  const postback = postbackFor(await repo.sitePostbacks(tx, member.siteId), network, event);
  const postbackUrl = postback
    ? renderPostbackUrl(postback.url, {
        click_id: clickId,
        event,
        amount: decimalAmount(amount?.cents ?? null),
        currency: amount?.currency ?? '',
      })
    : null;
  const id = await repo.insertAttributionEvent(tx, {
    siteId: member.siteId,
    clickId,
    userId: member.userId,
    event,
    network: network ?? null,
    amountCents: amount?.cents ?? null,
    currency: amount?.currency ?? null,
    occurredAt: at,
    postbackUrl,
  });
  // The postback leaves with the change that caused it: its job is committed in the same transaction.
  if (id !== undefined && postbackUrl)
    await postbackSend.enqueue(tx, `postback:${id}`, { event: id }, { at });
  return id !== undefined;
}

export async function recordSignup(
  tx: Executor,
  member: { id: number; siteId: number; trafficsource: TrafficSource | null },
  at: Date,
): Promise<void> {
  await record(
    tx,
    { userId: member.id, siteId: member.siteId, trafficsource: member.trafficsource },
    'signup',
    at,
    null,
  );
}

/** The member's first activation (a later re-confirmation counts nothing). */
export async function recordActivation(tx: Executor, userId: number, at: Date): Promise<void> {
  const first = await repo.markFirst(tx, userId, 'activatedAt', at);
  if (first) await record(tx, { userId, ...first }, 'activation', at, null);
}

/** The member's first paid order, with what it cost. */
export async function recordFirstPurchase(
  tx: Executor,
  order: { userId: number; amountCents: number; currency: string },
  at: Date,
): Promise<void> {
  const first = await repo.markFirst(tx, order.userId, 'firstPurchaseAt', at);
  if (first)
    await record(tx, { userId: order.userId, ...first }, 'first_purchase', at, {
      cents: order.amountCents,
      currency: order.currency,
    });
}

/** The member was signed in on this (UTC) day: the dashboard's active members. */
export async function recordActiveDay(db: Executor, userId: number, at: Date): Promise<void> {
  await repo.insertActiveDay(db, userId, at.toISOString().slice(0, 10));
}
