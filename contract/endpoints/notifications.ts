import { z } from 'zod';
import { errorBodySchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  notificationSettingsSchema,
  notificationSettingsUpdateSchema,
  unsubscribeResultSchema,
} from '../notifications.ts';

export const unsubscribeQuerySchema = z.object({ token: z.string().max(100) });

export const mailEventBodySchema = z.object({ email: z.email(), type: z.enum(['bounce', 'complaint']) });

export const mailEventResponseSchema = z.object({ ok: z.literal(true), members: z.number().int() });

const errors = { 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };

/** The notifications calls: each route is registered from its declaration and the web client typed by it. */
export const notificationsEndpoints = {
  getNotifications: defineEndpoint({
    method: 'GET',
    path: '/api/notifications.php',
    tags: ['notifications'],
    summary: 'Mail and push settings per type, and why mails are off if they are',
    responses: { 200: notificationSettingsSchema, ...errors },
  }),
  putNotifications: defineEndpoint({
    method: 'PUT',
    path: '/api/notifications.php',
    tags: ['notifications'],
    summary: 'Changes settings; enable_email turns mails back on',
    body: notificationSettingsUpdateSchema,
    responses: { 200: notificationSettingsSchema, ...errors },
  }),
  getUnsubscribe: defineEndpoint({
    method: 'GET',
    path: '/api/unsubscribe.php',
    tags: ['notifications'],
    summary: 'The unsubscribe link of a mail: shows the confirmation page',
    query: unsubscribeQuerySchema,
  }),
  postUnsubscribe: defineEndpoint({
    method: 'POST',
    path: '/api/unsubscribe.php',
    tags: ['notifications'],
    summary: 'One-click unsubscribe (RFC 8058), no login needed: all notification mails, or one nudge',
    query: unsubscribeQuerySchema,
    responses: { 200: unsubscribeResultSchema, 404: errorBodySchema },
  }),
  postMailEvents: defineEndpoint({
    method: 'POST',
    path: '/api/mail-events.php',
    tags: ['notifications'],
    summary: "The mail provider's bounce and complaint webhook (header x-webhook-secret)",
    body: mailEventBodySchema,
    responses: { 200: mailEventResponseSchema, 403: errorBodySchema },
  }),
};
