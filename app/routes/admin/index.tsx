import { redirect } from 'react-router';
import { staffApi } from '#app/lib/staff-api.server.ts';
import type { Route } from './+types/index';

/**
 * The back office's start, where a sign-in lands: the first-run wizard while the database holds no
 * site yet (an admin on a new installation), else the inbox. Only admins may list the sites.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const sites = await staffApi(context.api)('GET /api/admin/sites.php');
  return redirect(sites.ok && sites.data.sites.length === 0 ? '/admin/setup' : '/admin/inbox');
}
