import { errorBodySchema, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  autoLikeResponseSchema,
  likesResponseSchema,
  matchResponseSchema,
  profileRefSchema,
  swipeBodySchema,
  swipeResultSchema,
  swipeStackSchema,
  swipeUndoResponseSchema,
  visitorsQuerySchema,
  visitorsResponseSchema,
} from '../likes.ts';

const errors = { 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema, 429: errorBodySchema };

/** The likes calls: each route is registered from its declaration and the web client typed by it. */
export const likesEndpoints = {
  getLikes: defineEndpoint({
    method: 'GET',
    path: '/api/likes.php',
    tags: ['likes'],
    summary: 'Given and received likes (new first) and matches',
    responses: { 200: likesResponseSchema, ...errors },
  }),
  postLike: defineEndpoint({
    method: 'POST',
    path: '/api/like.php',
    tags: ['likes'],
    summary: 'Likes a member; a mutual like is a match',
    body: profileRefSchema,
    responses: { 200: matchResponseSchema, ...errors },
    errors: ['blocked', 'daily_limit'],
  }),
  deleteLike: defineEndpoint({
    method: 'DELETE',
    path: '/api/like.php',
    tags: ['likes'],
    summary: 'Takes a like back',
    body: profileRefSchema,
    responses: { 200: okSchema, ...errors },
  }),
  getSwipe: defineEndpoint({
    method: 'GET',
    path: '/api/swipe.php',
    tags: ['likes'],
    summary: 'The next cards of the swipe game and the likes left today',
    responses: { 200: swipeStackSchema, ...errors },
  }),
  postSwipe: defineEndpoint({
    method: 'POST',
    path: '/api/swipe.php',
    tags: ['likes'],
    summary: "Likes or passes a card; 429 daily_limit after the day's 4 likes",
    body: swipeBodySchema,
    responses: { 200: swipeResultSchema, ...errors },
    errors: ['daily_limit'],
  }),
  postSwipeUndo: defineEndpoint({
    method: 'POST',
    path: '/api/swipe-undo.php',
    tags: ['likes'],
    summary:
      "Takes back the member's last pass (the card returns); 409 undo_unavailable for any other pass or after a like, 404 when the profile can no longer be shown (deleted, or a block either way)",
    body: profileRefSchema,
    responses: { 200: swipeUndoResponseSchema, 409: errorBodySchema, ...errors },
    errors: ['undo_unavailable'],
  }),
  getAutoLike: defineEndpoint({
    method: 'GET',
    path: '/api/auto-like.php',
    tags: ['likes'],
    summary: 'A profile that likes the member, or null',
    responses: { 200: autoLikeResponseSchema, ...errors },
  }),
  getVisitors: defineEndpoint({
    method: 'GET',
    path: '/api/visitors.php',
    tags: ['likes'],
    summary:
      "Who viewed the member's profile: newest first, veiled for free members, blocks hidden both ways",
    query: visitorsQuerySchema,
    responses: { 200: visitorsResponseSchema, ...errors },
  }),
};
