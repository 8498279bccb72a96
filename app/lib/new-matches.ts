import type { LikesResponse } from '#contract/likes.ts';
import type { Profile } from '#contract/profiles.ts';

/**
 * New matches: mutual likes without a conversation yet (told by the server, whichever page of the
 * chat list a conversation is on), shown as a row above the conversations. No answer, no row.
 */
export function newMatchesOf(likes: LikesResponse | null): Profile[] {
  if (!likes) return [];
  const fresh = new Set(likes.new_matches);
  return likes.matches.filter((profile) => fresh.has(profile.id));
}
