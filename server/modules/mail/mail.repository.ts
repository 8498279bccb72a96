import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { conversationParticipants } from '#server/db/schema/chats.ts';
import { type MailCondition, mailJobs } from '#server/db/schema/mail.ts';

export type NewMail = {
  /** The From header; none means MAIL_FROM. */
  from?: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  kind: string;
  headers?: Record<string, string>;
  condition?: MailCondition;
  /** Send no earlier than this (default: now). */
  runAt?: Date;
};

export async function insertMail(db: Executor, mail: NewMail, at: Date): Promise<number> {
  const [row] = await db
    .insert(mailJobs)
    .values({
      ...mail,
      headers: mail.headers ?? {},
      condition: mail.condition ?? null,
      runAt: mail.runAt ?? at,
      createdAt: at,
    })
    .returning({ id: mailJobs.id });
  return row!.id;
}

export async function countPendingMails(db: Executor): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(mailJobs)
    .where(eq(mailJobs.status, 'pending'));
  return row?.count ?? 0;
}

/** `attempts`: the job runner's attempt that sent it (the outbox shows it). */
export async function markMailSent(db: Executor, id: number, attempts: number, at: Date): Promise<void> {
  await db
    .update(mailJobs)
    .set({ status: 'sent', attempts, sentAt: at, lastError: null })
    .where(eq(mailJobs.id, id));
}

/** A failed attempt: the mail waits for `retryAt`, or without one it has failed for good. */
export async function markMailFailed(
  db: Executor,
  id: number,
  error: string,
  attempts: number,
  retryAt: Date | null,
): Promise<void> {
  await db
    .update(mailJobs)
    .set(
      retryAt
        ? { runAt: retryAt, attempts, lastError: error }
        : { status: 'failed', attempts, lastError: error },
    )
    .where(eq(mailJobs.id, id));
}

export async function listMails(db: Executor, limit = 50) {
  return db.select().from(mailJobs).orderBy(sql`${mailJobs.id} desc`).limit(limit);
}

export async function markMailSkipped(db: Executor, id: number): Promise<void> {
  await db.update(mailJobs).set({ status: 'skipped' }).where(eq(mailJobs.id, id));
}

/** Whether a message mail still has a reason to go: the message is still unread. */
export async function conditionHolds(db: Executor, condition: MailCondition | null): Promise<boolean> {
  if (!condition) return true;
  const { conversationId, profileId, messageId } = condition.unread;
  const [row] = await db
    .select({ lastRead: conversationParticipants.lastReadMessageId })
    .from(conversationParticipants)
    .where(
      and(
        eq(conversationParticipants.conversationId, conversationId),
        eq(conversationParticipants.profileId, profileId),
      ),
    );
  return row !== undefined && row.lastRead < messageId;
}

export async function findMail(db: Executor, id: number) {
  const [row] = await db.select().from(mailJobs).where(eq(mailJobs.id, id));
  return row;
}
