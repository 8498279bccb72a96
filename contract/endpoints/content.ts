import { z } from 'zod';
import { emailField } from '../accounts.ts';
import { errorBodySchema, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';

export const contentPages = [
  'terms',
  'privacy',
  'cookies',
  'ban',
  'return-policy',
  'faq',
  'service',
  'compliance',
  'complaints',
] as const;
export type ContentPage = (typeof contentPages)[number];

export const pageQuerySchema = z.object({ page: z.enum(contentPages) });

export const pageResponseSchema = z.object({ title: z.string(), html: z.string() });

/** POST /api/complaint.php: the complaints form (no login needed). */
export const complaintBodySchema = z.object({
  name: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(100, { error: 'too_long' }),
  email: emailField,
  subject: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(200, { error: 'too_long' }),
  message: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(5000, { error: 'too_long' }),
});

/** The content calls: each route is registered from its declaration and the web client typed by it. */
export const contentEndpoints = {
  getPage: defineEndpoint({
    method: 'GET',
    path: '/api/page.php',
    tags: ['content'],
    summary:
      'A legal or info page in the visitor language, as HTML with the site and company details filled in',
    query: pageQuerySchema,
    responses: {
      200: pageResponseSchema,
      404: errorBodySchema,
      422: errorBodySchema,
    },
  }),
  postComplaint: defineEndpoint({
    method: 'POST',
    path: '/api/complaint.php',
    tags: ['content'],
    summary:
      'Stores a complaint for the operators and acknowledges it by mail with a reference number only (5 an hour per IP)',
    body: complaintBodySchema,
    responses: { 201: okSchema, 422: errorBodySchema, 429: errorBodySchema },
  }),
};
