import { redirect } from 'react-router';
import { cookieHeaders } from '#app/lib/actions.server.ts';
import type { Route } from './+types/logout';

export async function action({ context }: Route.ActionArgs) {
  const result = await context.api('/api/admin/session.php', { method: 'DELETE' });
  throw redirect('/admin/login', { headers: cookieHeaders(result) });
}

export function loader() {
  return redirect('/admin/inbox');
}
