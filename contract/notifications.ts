import { z } from 'zod';

/** One channel's switches: each notification type, and the daily nudges (at most one a day in all). */
const channelSettingsSchema = z.object({
  messages: z.boolean(),
  likes: z.boolean(),
  matches: z.boolean(),
  visitors: z.boolean().describe('nudge: "N people viewed your profile"'),
  unread: z.boolean().describe('nudge: "You have N unread messages"'),
  likes_digest: z.boolean().describe('nudge: the new likes of the day in one'),
  news: z.boolean(),
});

export const notificationSettingsSchema = z.object({
  email: channelSettingsSchema,
  push: channelSettingsSchema,
  notifications_disabled: z
    .array(z.string())
    .describe('why mails are off: unsubscribe, bounce, spam_complaint'),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const notificationSettingsUpdateSchema = z.object({
  email: notificationSettingsSchema.shape.email.partial().optional(),
  push: notificationSettingsSchema.shape.push.partial().optional(),
  enable_email: z
    .literal(true)
    .optional()
    .describe('turn mails back on after a bounce, complaint or unsubscribe'),
});

export const pushSubscriptionSchema = z.object({
  endpoint: z.url().max(1000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(20).max(200), auth: z.string().min(8).max(100) }),
});

/** What a one-click unsubscribe stopped: every notification mail, or one nudge's mails. */
export const unsubscribeResultSchema = z.object({
  ok: z.literal(true),
  stopped: z.enum(['all', 'visitors', 'unread', 'likes_digest']),
});
