import { z } from 'zod';
import { errorBodySchema, idField, idParam, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { profileRefSchema } from '../likes.ts';
import { memberResponseSchema, ownProfileSchema, profileUpdateSchema } from '../profiles.ts';
import { profilesResponseSchema } from './search.ts';

export const ownProfileResponseSchema = z.object({ profile: ownProfileSchema });

export const memberQuerySchema = z.object({ id: idParam });

export const reportBodySchema = z
  .object({
    profile: idField.optional(),
    message: idField.optional(),
    reason: z.enum(['spam', 'scam', 'offensive', 'underage', 'other'], { error: 'required' }),
    text: z.string().max(2000, { error: 'too_long' }).optional(),
  })
  .refine((body) => (body.profile === undefined) !== (body.message === undefined), {
    message: 'required',
    path: ['profile'],
  });

const errors = {
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};

/** The profiles calls: each route is registered from its declaration and the web client typed by it. */
export const profilesEndpoints = {
  getProfile: defineEndpoint({
    method: 'GET',
    path: '/api/profile.php',
    tags: ['profiles'],
    summary: "The member's own profile with every editable field and the photos",
    responses: { 200: ownProfileResponseSchema, ...errors },
  }),
  putProfile: defineEndpoint({
    method: 'PUT',
    path: '/api/profile.php',
    tags: ['profiles'],
    summary: 'Changes any editable fields of the own profile',
    body: profileUpdateSchema,
    responses: { 200: ownProfileResponseSchema, ...errors },
  }),
  getMember: defineEndpoint({
    method: 'GET',
    path: '/api/member.php',
    tags: ['profiles'],
    summary:
      "Another member's profile and photos; premium photos are blurred copies for non-premium viewers. 403 blocked",
    query: memberQuerySchema,
    responses: { 200: memberResponseSchema, ...errors },
    errors: ['blocked'],
  }),
  postBlock: defineEndpoint({
    method: 'POST',
    path: '/api/block.php',
    tags: ['profiles'],
    summary: 'Blocks a member: neither sees nor contacts the other any more',
    body: profileRefSchema,
    responses: { 200: okSchema, ...errors },
  }),
  deleteBlock: defineEndpoint({
    method: 'DELETE',
    path: '/api/block.php',
    tags: ['profiles'],
    summary: 'Unblocks a member',
    body: profileRefSchema,
    responses: { 200: okSchema, ...errors },
  }),
  getBlocks: defineEndpoint({
    method: 'GET',
    path: '/api/blocks.php',
    tags: ['profiles'],
    summary: 'The members the member blocked',
    responses: { 200: profilesResponseSchema, ...errors },
  }),
  postReport: defineEndpoint({
    method: 'POST',
    path: '/api/report.php',
    tags: ['profiles'],
    summary: 'Reports a profile, or a message of a conversation the member takes part in, to the operators',
    body: reportBodySchema,
    responses: { 200: okSchema, ...errors },
  }),
};
