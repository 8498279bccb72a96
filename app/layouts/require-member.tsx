import { Outlet, redirect } from 'react-router';
import { serverApi } from '#app/lib/api.ts';
import type { Route } from './+types/require-member';

/** Screens behind login: a visitor is sent to the login page and comes back after. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const answer = await serverApi(context.api)('GET /api/user.php');
  if (!answer.ok || !answer.data.user) {
    const url = new URL(request.url);
    throw redirect(`/login?redirect=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return null;
}

export default function RequireMember() {
  return <Outlet />;
}
