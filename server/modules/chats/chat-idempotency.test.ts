import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '#server/db/schema/chats.ts';
import { creditLedger } from '#server/db/schema/credits.ts';
import { users } from '#server/db/schema/members.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

/** POST /api/chat.php client_id: a retry or a resend after a reconnect never sends or charges twice. */
describe('chat idempotency keys and read receipts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const send = (cookie: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/chat.php', headers: { cookie }, payload });

  async function paidSender() {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    // A paying member: every text costs the site's message credits (1).
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, sender.userId));
    return { sender, receiver };
  }

  async function messagesAndCharges(userId: number, senderProfileId: number, clientId: string) {
    const [stored] = await t.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(messages)
      .where(sql`${messages.senderProfileId} = ${senderProfileId} and ${messages.clientId} = ${clientId}`);
    const [charges] = await t.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(creditLedger)
      .where(sql`${creditLedger.userId} = ${userId} and ${creditLedger.delta} < 0`);
    const [user] = await t.database.db.select().from(users).where(eq(users.id, userId));
    return { messages: stored!.count, charges: charges!.count, credits: user!.credits };
  }

  it('answers a repeat with the same client id with the first message and charges once', async () => {
    const { sender, receiver } = await paidSender();
    const first = await send(sender.cookie, {
      profile: receiver.profileId,
      text: 'hello',
      client_id: 'retry-key-0001',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json().message).toMatchObject({ client_id: 'retry-key-0001', mine: true, text: 'hello' });
    const again = await send(sender.cookie, {
      profile: receiver.profileId,
      text: 'hello',
      client_id: 'retry-key-0001',
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().message.id).toBe(first.json().message.id);
    expect(again.json().credits).toBe(first.json().credits);
    expect(await messagesAndCharges(sender.userId, sender.profileId, 'retry-key-0001')).toMatchObject({
      messages: 1,
      charges: 1,
    });
  });

  it('makes one message and one charge of parallel sends with the same client id', async () => {
    const { sender, receiver } = await paidSender();
    const before = (await messagesAndCharges(sender.userId, sender.profileId, 'parallel-key-01')).credits;
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        send(sender.cookie, { profile: receiver.profileId, text: 'once', client_id: 'parallel-key-01' }),
      ),
    );
    expect(results.map((response) => response.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(results.map((response) => response.json().message.id)).size).toBe(1);
    expect(await messagesAndCharges(sender.userId, sender.profileId, 'parallel-key-01')).toEqual({
      messages: 1,
      charges: 1,
      credits: before - 1,
    });
  });

  it('keeps keys per sender, tells only the sender the key, and refuses a malformed key', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app);
    const fromA = await send(a.cookie, { profile: b.profileId, text: 'hi', client_id: 'shared-key-0001' });
    const fromB = await send(b.cookie, { profile: a.profileId, text: 'hi', client_id: 'shared-key-0001' });
    expect(fromA.statusCode).toBe(201);
    expect(fromB.statusCode).toBe(201);
    expect(fromB.json().message.id).not.toBe(fromA.json().message.id);
    const seenByB = await t.app.inject({
      url: `/api/chat.php?conversation=${fromA.json().message.conversation}`,
      headers: { cookie: b.cookie },
    });
    const byA = seenByB.json().messages.find((message: { mine: boolean }) => !message.mine);
    expect(byA.client_id).toBeUndefined();
    const bad = await send(a.cookie, { profile: b.profileId, text: 'hi', client_id: 'x' });
    expect(bad.statusCode).toBe(422);
    const injected = await send(a.cookie, {
      profile: b.profileId,
      text: 'hi',
      client_id: "a'; drop table--",
    });
    expect(injected.statusCode).toBe(422);
  });

  it('tells the sender how far the other member has read (read_up_to)', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app);
    const sent = (await send(a.cookie, { profile: b.profileId, text: 'read me' })).json().message;
    const url = `/api/chat.php?conversation=${sent.conversation}`;
    expect((await t.app.inject({ url, headers: { cookie: a.cookie } })).json().read_up_to).toBe(0);
    await t.app.inject({ url, headers: { cookie: b.cookie } });
    expect((await t.app.inject({ url, headers: { cookie: a.cookie } })).json().read_up_to).toBe(sent.id);
  });
});
