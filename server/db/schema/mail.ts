import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const mailStatuses = ['pending', 'sent', 'failed', 'skipped'] as const;

/** Checked just before sending: a message mail is dropped when the message was read meanwhile. */
export type MailCondition = { unread: { conversationId: number; profileId: number; messageId: number } };

/**
 * The durable mail queue: a mail is a row first and is sent by a worker, so an SMTP server that is
 * down delays a mail and never loses it.
 */
export const mailJobs = pgTable(
  'mail_jobs',
  {
    id: serial().primaryKey(),
    /** The From header chosen for the mail's site at enqueue time; null means MAIL_FROM. */
    from: text('sender'),
    to: text().notNull(),
    subject: text().notNull(),
    html: text().notNull(),
    text: text().notNull(),
    headers: jsonb().$type<Record<string, string>>().notNull().default({}),
    kind: text().notNull(),
    condition: jsonb().$type<MailCondition>(),
    status: text({ enum: mailStatuses }).notNull().default('pending'),
    attempts: integer().notNull().default(0),
    runAt: timestamp({ withTimezone: true }).notNull(),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('mail_jobs_due_idx').on(table.status, table.runAt)],
);
