import { z } from 'zod';
import { inboxItemSchema } from './admin.ts';
import { messageSchema } from './chats.ts';
import { idField } from './common.ts';
import { profileSchema } from './profiles.ts';

/** The frames the server sends on GET /api/ws (api-contract.md, Live events), as JSON text frames. */
export const liveEventSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('ready') })
    .describe('Sent once the socket is subscribed: fetch what was missed'),
  z.object({ type: z.literal('message'), conversation: idField, message: messageSchema }),
  z.object({
    type: z.literal('read'),
    conversation: idField,
    up_to: idField.optional().describe('the newest message id the reader has now read'),
  }),
  z.object({ type: z.literal('like'), profile: profileSchema }),
  z.object({ type: z.literal('match'), profile: profileSchema }),
  z.object({ type: z.literal('credits'), credits: z.number().int() }),
  z.object({ type: z.literal('typing'), conversation: idField }),
  z
    .object({
      type: z.literal('photo_review'),
      conversation: idField,
      id: idField,
      status: z.enum(['delivered', 'rejected', 'withdrawn']),
    })
    .describe("to the sender: a moderator decided on a held photo (delivered comes with its 'message')"),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;
/** @deprecated the same type as LiveEvent */
export type LiveEventFrame = LiveEvent;

/** A frame off the socket, checked against the contract: anything else is dropped (null). */
export function parseLiveEvent(text: string): LiveEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = liveEventSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The connection states of the live socket (the chat's state machine builds on them). */
export type ConnectionStatus = 'connecting' | 'ready' | 'reconnecting' | 'offline';

/** The frames a member's client may send on GET /api/ws. */
export const liveClientFrameSchema = z.object({ type: z.literal('typing'), conversation: idField });
export type LiveClientFrame = z.infer<typeof liveClientFrameSchema>;

/** The frames the server sends on GET /api/admin/ws (contract/admin.ts AdminEvent). */
export const adminEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z
    .object({
      type: z.literal('inbox'),
      op: z.enum(['add', 'update', 'remove']),
      conversation: z.union([inboxItemSchema, z.object({ id: idField })]),
    })
    .describe('The queue changed: a row to add or update, or the id of one to remove'),
  z.object({
    type: z.literal('claim'),
    conversation: idField,
    claimed_by: z.object({ id: idField, name: z.string() }).nullable(),
    claim_expires_at: z.string().nullable(),
  }),
  z.object({ type: z.literal('message'), conversation: idField, message: messageSchema }),
]);

export { liveCloseCodes } from './live-close-codes.ts';
