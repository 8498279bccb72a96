import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationParticipants, conversations, messages } from '#server/db/schema/chats.ts';
import { profiles } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { likes } from '#server/db/schema/social.ts';
import { activeMember, grantCredits } from '../setup/members.ts';
import { injectCounted, installStatementCounter } from '../setup/statement-count.ts';
import { createTestApp, type TestApp } from '../setup/test-app.ts';

/**
 * The query budget of each hot call (docs/decisions/011): SQL statements per request, transaction control
 * not counted. Each call is measured with 1 and with 50 conversations, likes and photos: the count
 * must stay within the budget and must not grow with the rows.
 */
const budgets = {
  'GET /api/user.php': 2,
  'GET /api/member.php': 3,
  'GET /api/chats.php': 3,
  'GET /api/likes.php': 3,
  'GET /api/search.php': 2,
  'GET /api/counts.php': 2,
  // A conversation page that marks it read (was 12).
  'GET /api/chat.php': 3,
  // A paid text send (was 17): the sender's lock, which reads the other member too; the
  // conversation's state with any earlier message of the idempotency key; the message; its ledger
  // entry through the credits module (one statement, decision 035); the mail claim and the push
  // settings.
  'POST /api/chat.php': 6,
} as const;
type Call = keyof typeof budgets;

let t: TestApp;
beforeAll(async () => {
  installStatementCounter();
  t = await createTestApp();
  await t.app.ready();
});
afterAll(() => t.close());

/** A member with `rows` conversations (each with an unread message), likes both ways, and a profile of `rows` photos to view. */
async function world(rows: number) {
  const db = t.database.db;
  const me = await activeMember(t.app);
  await grantCredits(t.app, me.userId, 100, true);
  const others = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.status, 'active'), ne(profiles.id, me.profileId)))
    .limit(rows);
  expect(others).toHaveLength(rows);
  const now = new Date();
  const conversationIds: number[] = [];
  for (const other of others) {
    const low = Math.min(me.profileId, other.id);
    const high = Math.max(me.profileId, other.id);
    const [conversation] = await db
      .insert(conversations)
      .values({
        lowProfileId: low,
        highProfileId: high,
        startedByProfileId: other.id,
        createdAt: now,
        lastMessageAt: now,
      })
      .returning();
    conversationIds.push(conversation!.id);
    await db.insert(conversationParticipants).values([
      { conversationId: conversation!.id, profileId: low },
      { conversationId: conversation!.id, profileId: high },
    ]);
    await db.insert(messages).values([
      {
        conversationId: conversation!.id,
        senderProfileId: other.id,
        kind: 'text',
        text: 'hello',
        createdAt: now,
      },
      {
        conversationId: conversation!.id,
        senderProfileId: me.profileId,
        kind: 'text',
        text: 'hi',
        createdAt: now,
      },
      {
        conversationId: conversation!.id,
        senderProfileId: other.id,
        kind: 'text',
        text: 'how are you',
        createdAt: now,
      },
    ]);
  }
  await db
    .insert(likes)
    .values(
      others.map((other) => ({ likerProfileId: other.id, likedProfileId: me.profileId, createdAt: now })),
    )
    .onConflictDoNothing();
  await db
    .insert(likes)
    .values(
      others.map((other) => ({ likerProfileId: me.profileId, likedProfileId: other.id, createdAt: now })),
    )
    .onConflictDoNothing();
  const viewed = others[0]!.id;
  await db.delete(photos).where(inArray(photos.profileId, [viewed]));
  await db.insert(photos).values(
    Array.from({ length: rows }, (_, position) => ({
      profileId: viewed,
      position,
      mainKey: `m/${viewed}/${position}.jpg`,
      thumbKey: `t/${viewed}/${position}.jpg`,
      blurredKey: `b/${viewed}/${position}.jpg`,
      blurredThumbKey: `bt/${viewed}/${position}.jpg`,
      width: 800,
      height: 600,
    })),
  );
  return { cookie: me.cookie, viewed, conversation: conversationIds[0]! };
}

async function measure(rows: number): Promise<Record<Call, string[]>> {
  const { cookie, viewed, conversation } = await world(rows);
  const headers = { cookie };
  const call = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const { response, statements } = await injectCounted(t.app, {
      method,
      url,
      headers,
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return statements;
  };
  return {
    'GET /api/user.php': await call('GET', '/api/user.php'),
    'GET /api/member.php': await call('GET', `/api/member.php?id=${viewed}`),
    'GET /api/chats.php': await call('GET', '/api/chats.php'),
    'GET /api/chat.php': await call('GET', `/api/chat.php?conversation=${conversation}`),
    'POST /api/chat.php': await call('POST', '/api/chat.php', { profile: viewed, text: 'one more' }),
    'GET /api/likes.php': await call('GET', '/api/likes.php'),
    'GET /api/search.php': await call('GET', '/api/search.php'),
    'GET /api/counts.php': await call('GET', '/api/counts.php'),
  };
}

describe('query budgets', () => {
  it('keeps every hot call within its statement budget, the same at 1 and at 50 rows', async () => {
    const one = await measure(1);
    const fifty = await measure(50);
    const table = Object.keys(budgets).map((key) => {
      const call = key as Call;
      return { call, budget: budgets[call], at1: one[call].length, at50: fifty[call].length };
    });
    console.info(table);
    if (process.env.QUERY_BUDGET_DUMP) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(process.env.QUERY_BUDGET_DUMP, JSON.stringify(fifty, null, 1));
    }
    for (const row of table) {
      expect(row.at50, `${row.call} grows with rows:\n${fifty[row.call].join('\n')}`).toBe(row.at1);
      expect(row.at50, `${row.call} over budget:\n${fifty[row.call].join('\n')}`).toBeLessThanOrEqual(
        row.budget,
      );
    }
  });
});
