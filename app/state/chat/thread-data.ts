import type { ResponseOf } from '#app/lib/api.ts';
import type { ChatResponse } from '#contract/chats.ts';
import type { Photo } from '#contract/profiles.ts';

/** A gift on offer in the conversation, with its price. */
export type ChatGift = ResponseOf<'GET /api/gifts.php'>['gifts'][number];

/** What a conversation's screen is loaded with: the thread, the gifts, and the member's own photos to send. */
export type ThreadData = { chat: ChatResponse; gifts: ChatGift[]; photos: Photo[] };
