import { redirect } from 'react-router';
import { serverApi } from '#app/lib/api.ts';
import type { Route } from './+types/member-chat';

/** /members/{id}/chat: opens (or starts) the conversation with a member and goes there. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const answer = await serverApi(context.api)('POST /api/conversation.php', {
    body: { profile: Number(params.id) || 0 },
  });
  if (answer.ok) throw redirect(`/chats/${answer.data.conversation}`);
  const error = answer.code;
  if (error === 'authentication_required')
    throw redirect(`/login?redirect=${encodeURIComponent(`/members/${params.id}/chat`)}`);
  if (error === 'premium_required') throw redirect('/premium');
  throw redirect(`/members/${params.id}`);
}

export default function MemberChat() {
  return null;
}
