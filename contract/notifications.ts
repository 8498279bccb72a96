import { z } from 'zod';

export const notificationSettingsSchema = z.object({
  email: z.object({ messages: z.boolean(), likes: z.boolean(), matches: z.boolean(), news: z.boolean() }),
  push: z.object({ messages: z.boolean(), likes: z.boolean(), matches: z.boolean(), news: z.boolean() }),
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
