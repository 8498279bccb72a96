import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareQueue, type InboxItem } from '#contract/admin.ts';
import { bundles } from '#server/db/schema/catalog.ts';
import { users } from '#server/db/schema/members.ts';
import { orders } from '#server/db/schema/payments.ts';
import { companies, sites } from '#server/db/schema/sites.ts';
import { conversationClaims, staff } from '#server/db/schema/staff.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { seedWaiting } from '../../../tests/setup/queue-fixture.ts';
import { freshFictionalProfile, signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

type Page = { conversations: InboxItem[]; claimed: InboxItem[]; next_cursor: string | null };

describe('operator workbench', () => {
  let t: TestApp;
  let admin: TestStaff;
  // Minute-aligned, so the test knows which waits share a minute of the value order.
  const clock = createFakeClock(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 5_000));
  const advanceSeconds = (seconds: number) => clock.advanceMinutes(seconds / 60);
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
    admin = await signedInStaff(t.app, 'admin', { now: clock.now });
  });
  afterAll(() => t.close());

  const call = (who: TestStaff, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
  const inbox = async (who: TestStaff, query: string): Promise<Page> => {
    const response = await call(who, 'GET', `/api/admin/inbox.php?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  /** A member of `language` who wrote to a fresh fictional profile now; returns the conversation. */
  async function waitingMember(
    app: FastifyInstance,
    language: string,
    value: { credits?: number; paid?: boolean; spentCents?: number; spentDaysAgo?: number } = {},
  ) {
    const member = await activeMember(app);
    const profile = await freshFictionalProfile(app);
    const sent = await app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: profile.id, text: `Hello from ${language}` },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    // The member's worth as the test wants it, set after the send (which may cost credits).
    await app.deps.db
      .update(users)
      .set({ language, credits: value.credits ?? 0, paidUser: value.paid ?? false })
      .where(eq(users.id, member.userId));
    if (value.spentCents) {
      const [user] = await app.deps.db.select().from(users).where(eq(users.id, member.userId));
      const [bundle] = await app.deps.db.select().from(bundles).limit(1);
      await app.deps.db.insert(orders).values({
        userId: member.userId,
        siteId: user!.siteId,
        bundleId: bundle!.id,
        credits: 10,
        amountCents: value.spentCents,
        listPriceCents: value.spentCents,
        currency: 'EUR',
        country: 'NL',
        paymentMethod: 'test',
        provider: 'test',
        status: 'completed',
        createdAt: new Date(clock.now().getTime() - (value.spentDaysAgo ?? 0) * 86_400_000),
        settledAt: clock.now(),
      });
    }
    return { ...member, conversation: sent.json().message.conversation as number };
  }

  it('ranks the queue by value: paying members with credits, then waiting time by the minute, then 30-day spend', async () => {
    const operator = await signedInStaff(t.app, 'operator', { now: clock.now });
    // Written one after another: waits of 0 s, 30 s, 60 s, 70 s and 180 s after the first.
    const b = await waitingMember(t.app, 'da'); // free, no credits: oldest
    advanceSeconds(30);
    const c = await waitingMember(t.app, 'da', { paid: true }); // paid once, no credits left
    advanceSeconds(30);
    const d = await waitingMember(t.app, 'da', { credits: 10, paid: true, spentCents: 5_000 });
    advanceSeconds(10);
    const e = await waitingMember(t.app, 'da', { credits: 10, paid: true, spentCents: 9_000 });
    advanceSeconds(110);
    // Spent 40 days ago: too long ago to count.
    const a = await waitingMember(t.app, 'da', {
      credits: 50,
      paid: true,
      spentCents: 100_000,
      spentDaysAgo: 40,
    });

    const byValue = await inbox(operator, 'language=da');
    expect(byValue.conversations.map((row) => row.id)).toEqual([
      e.conversation, // paying with credits, waiting since minute 1, spent 90.00
      d.conversation, // paying with credits, the same minute, spent 50.00
      a.conversation, // paying with credits, waiting since minute 3
      b.conversation, // no credits: waiting since minute 0
      c.conversation, // no credits left: waiting since minute 0, 30 s later
    ]);
    expect(byValue.conversations[0]!.member_value).toEqual({
      credits: 10,
      paid_user: true,
      spent_cents_30d: 9_000,
    });
    expect(byValue.next_cursor).toBeNull();
    // The order the console keeps a live list in is the server's.
    expect([...byValue.conversations].sort((x, y) => compareQueue('value', x, y))).toEqual(
      byValue.conversations,
    );
    const oldest = await inbox(operator, 'language=da&order=oldest');
    expect(oldest.conversations.map((row) => row.id)).toEqual(
      [b, c, d, e, a].map((member) => member.conversation),
    );
    expect(byValue.conversations[2]!.member_value.spent_cents_30d).toBe(0);
    // Claimed rows leave the waiting list for a list of their own.
    const claimed = await call(operator, 'POST', '/api/admin/claim.php', { conversation: d.conversation });
    expect(claimed.statusCode).toBe(200);
    const after = await inbox(operator, 'language=da');
    expect(after.conversations.map((row) => row.id)).not.toContain(d.conversation);
    expect(after.claimed.map((row) => row.id)).toEqual([d.conversation]);
    expect(after.claimed[0]!.claimed_by).toMatchObject({ id: operator.id });
    expect((await call(operator, 'GET', '/api/admin/inbox.php?cursor=nonsense')).statusCode).toBe(422);
    expect((await call(operator, 'GET', '/api/admin/inbox.php?order=newest')).statusCode).toBe(422);
    await call(operator, 'DELETE', '/api/admin/claim.php', { conversation: d.conversation });
  });

  it('pages past 1,000 waiting conversations by cursor, each one once, in order', async () => {
    const operator = await signedInStaff(t.app, 'operator', { now: clock.now });
    const fictional = await freshFictionalProfile(t.app);
    const [site] = await t.database.db.select({ id: sites.id }).from(sites).limit(1);
    await seedWaiting(t.database.db, {
      count: 1_050,
      siteId: site!.id,
      language: 'pl',
      fictionalProfileId: fictional.id,
      now: clock.now(),
    });
    for (const order of ['value', 'oldest'] as const) {
      const seen: InboxItem[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Page = await inbox(
          operator,
          `language=pl&order=${order}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        seen.push(...page.conversations);
        cursor = page.next_cursor;
        pages++;
      } while (cursor !== null && pages < 100);
      expect(seen).toHaveLength(1_050);
      expect(new Set(seen.map((row) => row.id)).size).toBe(1_050);
      for (let index = 1; index < seen.length; index++) {
        expect(compareQueue(order, seen[index - 1]!, seen[index]!)).toBeLessThan(0);
      }
    }
  }, 60_000);

  describe('assignment', () => {
    let siteB: number;
    let onA: Awaited<ReturnType<typeof waitingMember>>;
    let onB: Awaited<ReturnType<typeof waitingMember>>;
    let operatorA: TestStaff;
    beforeAll(async () => {
      const [company] = await t.database.db.select({ id: companies.id }).from(companies).limit(1);
      const [created] = await t.database.db
        .insert(sites)
        .values({
          domain: `site-b-${process.pid}-${Date.now()}.localhost`,
          name: 'Site B',
          indexTitle: 'Site B',
          description: '',
          countries: ['NL'],
          supportEmail: 'support@example.com',
          companyId: company!.id,
        })
        .returning({ id: sites.id });
      siteB = created!.id;
      t.app.deps.sites.invalidate();
      onA = await waitingMember(t.app, 'fi', { credits: 5, paid: true });
      onB = await waitingMember(t.app, 'fi', { credits: 500, paid: true });
      // The member belongs to site B now (signing up there would need a second host).
      await t.database.db.update(users).set({ siteId: siteB }).where(eq(users.id, onB.userId));
      operatorA = await signedInStaff(t.app, 'operator', { now: clock.now });
      const [userA] = await t.database.db.select().from(users).where(eq(users.id, onA.userId));
      const assigned = await call(admin, 'PUT', '/api/admin/staff.php', {
        id: operatorA.id,
        sites: [userA!.siteId],
        languages: ['fi'],
        max_claims: 5,
      });
      expect(assigned.statusCode, assigned.body).toBe(200);
      expect(assigned.json().staff).toMatchObject({
        sites: [userA!.siteId],
        languages: ['fi'],
        max_claims: 5,
      });
    });

    it('lets an admin set role, sites, languages, claim limit and active; nobody else', async () => {
      const other = await signedInStaff(t.app, 'operator', { now: clock.now });
      expect(
        (await call(operatorA, 'PUT', '/api/admin/staff.php', { id: other.id, sites: [] })).statusCode,
      ).toBe(403);
      const bad = await call(admin, 'PUT', '/api/admin/staff.php', { id: other.id, sites: [999_999] });
      expect([bad.statusCode, bad.json().fields]).toEqual([422, { sites: 'invalid' }]);
      expect(
        (await call(admin, 'PUT', '/api/admin/staff.php', { id: other.id, languages: ['xx'] })).statusCode,
      ).toBe(422);
      expect(
        (await call(admin, 'PUT', '/api/admin/staff.php', { id: other.id, max_claims: 0 })).statusCode,
      ).toBe(422);
      expect(
        (await call(admin, 'PUT', '/api/admin/staff.php', { id: admin.id, role: 'operator' })).statusCode,
      ).toBe(422);
      expect(
        (await call(admin, 'PUT', '/api/admin/staff.php', { id: 999_999, active: false })).statusCode,
      ).toBe(404);
      const off = await call(admin, 'PUT', '/api/admin/staff.php', {
        id: other.id,
        active: false,
        role: 'moderator',
      });
      expect(off.json().staff).toMatchObject({ active: false, role: 'moderator' });
      // A deactivated account's sign-ins end.
      expect((await call(other, 'GET', '/api/admin/inbox.php')).statusCode).toBe(403);
      const listed = (await call(admin, 'GET', '/api/admin/staff.php')).json().staff;
      expect(listed.find((entry: { id: number }) => entry.id === operatorA.id)).toMatchObject({
        languages: ['fi'],
        max_claims: 5,
      });
    });

    it('keeps an operator of site A off a site-B conversation: 404 everywhere, never in the queue or claim-next', async () => {
      const queue = await inbox(operatorA, 'order=oldest');
      const ids = [...queue.conversations, ...queue.claimed].map((row) => row.id);
      expect(ids).toContain(onA.conversation);
      expect(ids).not.toContain(onB.conversation);
      // Its own filter cannot widen the assignment.
      expect((await inbox(operatorA, `site=${siteB}`)).conversations).toEqual([]);
      const conversation = onB.conversation;
      for (const [method, url, payload] of [
        ['GET', `/api/admin/conversation.php?id=${conversation}`, undefined],
        ['POST', '/api/admin/claim.php', { conversation }],
        ['DELETE', '/api/admin/claim.php', { conversation }],
        ['POST', '/api/admin/typing.php', { conversation }],
        ['POST', '/api/admin/reply.php', { conversation, text: 'hello' }],
        ['POST', '/api/admin/notes.php', { conversation, about: 'member', text: 'x' }],
      ] as const) {
        const response = await call(operatorA, method, url, payload);
        expect([url, response.statusCode, response.json().error]).toEqual([url, 404, 'not_found']);
      }
      // Claim-next gives every Finnish conversation of site A, and then nothing: never the site-B one,
      // though its member is worth more.
      const claimedIds: number[] = [];
      for (;;) {
        const next = await call(operatorA, 'POST', '/api/admin/next.php', {});
        if (next.statusCode !== 200) {
          expect([next.statusCode, next.json().error]).toEqual([404, 'queue_empty']);
          break;
        }
        claimedIds.push(next.json().conversation.id);
        expect(next.json().conversation.member_language).toBe('fi');
        expect(claimedIds.length).toBeLessThanOrEqual(5);
      }
      expect(claimedIds).toContain(onA.conversation);
      expect(claimedIds).not.toContain(onB.conversation);
      // An admin sees every site.
      const all = await inbox(admin, `site=${siteB}`);
      expect(all.conversations.map((row) => row.id)).toContain(onB.conversation);
      for (const id of claimedIds)
        await call(operatorA, 'DELETE', '/api/admin/claim.php', { conversation: id });
    });
  });

  it('claims the best conversation next, up to the claim limit, and releases it back to the queue', async () => {
    const operator = await signedInStaff(t.app, 'operator', { now: clock.now });
    await call(admin, 'PUT', '/api/admin/staff.php', { id: operator.id, languages: ['sv'] });
    const low = await waitingMember(t.app, 'sv');
    const high = await waitingMember(t.app, 'sv', { credits: 20, paid: true });
    const third = await waitingMember(t.app, 'sv');
    const first = await call(operator, 'POST', '/api/admin/next.php', {});
    expect(first.statusCode).toBe(200);
    expect(first.json().conversation).toMatchObject({
      id: high.conversation,
      claimed_by: { id: operator.id },
      member_value: { credits: 20, paid_user: true },
    });
    const second = await call(operator, 'POST', '/api/admin/next.php', { language: 'sv' });
    expect(second.json().conversation.id).toBe(low.conversation);
    // The default limit is 2: a third claim, by claim-next or by hand, waits for one to end.
    const refused = await call(operator, 'POST', '/api/admin/next.php', {});
    expect([refused.statusCode, refused.json().error]).toEqual([409, 'claim_limit']);
    const byHand = await call(operator, 'POST', '/api/admin/claim.php', { conversation: third.conversation });
    expect([byHand.statusCode, byHand.json().error]).toEqual([409, 'claim_limit']);
    // Renewing an own claim is no new claim.
    expect(
      (await call(operator, 'POST', '/api/admin/claim.php', { conversation: high.conversation })).statusCode,
    ).toBe(200);
    const released = await call(operator, 'DELETE', '/api/admin/claim.php', {
      conversation: high.conversation,
    });
    expect(released.statusCode).toBe(200);
    const queue = await inbox(operator, 'language=sv');
    expect(queue.conversations.map((row) => row.id)).toContain(high.conversation);
    expect(queue.claimed.map((row) => row.id)).toEqual([low.conversation]);
    // Released, the best one is the next again.
    expect((await call(operator, 'POST', '/api/admin/next.php', {})).json().conversation.id).toBe(
      high.conversation,
    );
    // A reply ends the claim, so the limit frees up.
    expect(
      (
        await call(operator, 'POST', '/api/admin/reply.php', {
          conversation: high.conversation,
          text: 'Hej!',
        })
      ).statusCode,
    ).toBe(201);
    expect((await call(operator, 'POST', '/api/admin/next.php', {})).json().conversation.id).toBe(
      third.conversation,
    );
    for (const id of [low.conversation, third.conversation])
      await call(operator, 'DELETE', '/api/admin/claim.php', { conversation: id });
    // Without a limit of the account's own, the site's setting counts.
    const [user] = await t.database.db.select().from(users).where(eq(users.id, low.userId));
    const siteEdit = await call(admin, 'PUT', '/api/admin/sites.php', { id: user!.siteId, max_claims: 1 });
    expect(siteEdit.statusCode, siteEdit.body).toBe(200);
    expect((await call(operator, 'POST', '/api/admin/next.php', {})).statusCode).toBe(200);
    const siteLimit = await call(operator, 'POST', '/api/admin/next.php', {});
    expect([siteLimit.statusCode, siteLimit.json().error]).toEqual([409, 'claim_limit']);
    await call(admin, 'PUT', '/api/admin/sites.php', { id: user!.siteId, max_claims: 2 });
    const held = await inbox(operator, 'language=sv');
    for (const row of held.claimed)
      await call(operator, 'DELETE', '/api/admin/claim.php', { conversation: row.id });
  });

  it('holds the claim limit under parallel claim-next calls, and parallel operators get different conversations', async () => {
    const fictional = await freshFictionalProfile(t.app);
    const [site] = await t.database.db.select({ id: sites.id }).from(sites).limit(1);
    await seedWaiting(t.database.db, {
      count: 30,
      siteId: site!.id,
      language: 'no',
      fictionalProfileId: fictional.id,
      now: clock.now(),
    });
    const operator = await signedInStaff(t.app, 'operator', { now: clock.now });
    await call(admin, 'PUT', '/api/admin/staff.php', { id: operator.id, languages: ['no'], max_claims: 3 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(operator, 'POST', '/api/admin/next.php', {})),
    );
    const statuses = results.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 409, 409, 409, 409, 409, 409, 409]);
    const held = await t.database.db
      .select()
      .from(conversationClaims)
      .where(eq(conversationClaims.staffId, operator.id));
    expect(held).toHaveLength(3);
    expect(new Set(held.map((claim) => claim.conversationId)).size).toBe(3);

    const others = await Promise.all(
      Array.from({ length: 4 }, () => signedInStaff(t.app, 'operator', { now: clock.now })),
    );
    await t.database.db
      .update(staff)
      .set({ languages: ['no'] })
      .where(
        sql`${staff.id} in (${sql.join(
          others.map((other) => sql`${other.id}`),
          sql`, `,
        )})`,
      );
    const parallel = await Promise.all(others.map((other) => call(other, 'POST', '/api/admin/next.php', {})));
    const ids = parallel.map((response) => response.json().conversation.id as number);
    expect(new Set([...ids, ...held.map((claim) => claim.conversationId)]).size).toBe(7);
  });
});
