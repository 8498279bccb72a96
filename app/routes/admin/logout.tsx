import { redirect } from 'react-router';
import { cookieHeaders } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import type { Route } from './+types/logout';

export async function action({ context }: Route.ActionArgs) {
  const result = await staffApi(context.api)('DELETE /api/admin/session.php');
  throw redirect('/admin/login', { headers: cookieHeaders(result) });
}

export function loader() {
  return redirect('/admin/inbox');
}
