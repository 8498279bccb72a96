import { Form, NavLink, Outlet, redirect, useRouteLoaderData } from 'react-router';
import type { LayoutHandle } from '#app/lib/layout-handle.ts';
import { rootDataOf } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Staff } from '#contract/admin.ts';
import type { Catalog } from '#contract/i18n.ts';
import type { Route } from './+types/admin-layout';
import '#app/styles/admin.scss';

/** The back office keeps its own whole-Bootstrap stylesheet, not the members' shell. */
export const handle: LayoutHandle = { layout: 'bare' };

const publicPaths = new Set(['/admin/login']);

/** Where a staff member still has to go before working: their own password, then TOTP; null when done. */
export function firstSignInStep(staff: Staff): '/admin/password' | '/admin/enrol' | null {
  if (staff.password_change_required) return '/admin/password';
  // A passkey is a second factor as TOTP is (api-contract.md, the workbench: "TOTP or a passkey").
  if (!staff.totp_enabled && !staff.passkey_enabled) return '/admin/enrol';
  return null;
}

/** The back office: staff only (their own session), never indexed, never framed. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname.replace(/\/$/, '');
  const me = await context.api<{ staff: Staff }>('/api/admin/session.php');
  const staff = me.ok ? me.data.staff : null;
  if (!staff && !publicPaths.has(path)) throw redirect('/admin/login');
  if (staff && publicPaths.has(path)) throw redirect('/admin/inbox');
  if (staff && path !== '/admin/logout') {
    // The first sign-in's steps, in order: the own password (an account an admin created), then
    // two-factor enrolment (every role); nothing else opens before both are done.
    const step = firstSignInStep(staff);
    if (step && path !== step) throw redirect(step);
  }
  return {
    staff,
    titles: titlesOf(context.resources.admin ?? {}, context.resources.engagement ?? {}),
  };
}

export function headers() {
  return {
    'X-Robots-Tag': 'noindex, nofollow',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'private, no-store',
    'Referrer-Policy': 'same-origin',
  };
}

/**
 * The back-office catalog key that names each page in its `<title>`, by the address's section (a
 * detail page is named by its section; an order by its number). By address: a layout's meta
 * function sees the matches above its page only.
 */
const pageTitleKeys: Record<string, string> = {
  '': 'nav.brand',
  login: 'login.heading',
  logout: 'nav.signOut',
  enrol: 'enrol.heading',
  setup: 'setup.heading',
  password: 'nav.password',
  templates: 'nav.templates',
  inbox: 'nav.inbox',
  conversations: 'nav.inbox',
  staff: 'nav.staff',
  stats: 'nav.stats',
  numbers: 'nav.numbers',
  audit: 'nav.audit',
  sites: 'nav.sites',
  companies: 'nav.companies',
  profiles: 'nav.profiles',
  account: 'nav.account',
  members: 'nav.members',
  reports: 'nav.reports',
  photos: 'nav.photos',
  bundles: 'nav.bundles',
  gifts: 'nav.gifts',
  discountcodes: 'nav.discountcodes',
  winback: 'nav.winback',
  orders: 'nav.orders',
  board: 'nav.board',
  outbound: 'nav.outbound',
  openers: 'engagement:nav.openers',
  'mass-messages': 'engagement:nav.massMessages',
};
const orderKey = 'orders.detailHeading';

/** The pages' names for their `<title>`, in the reader's language, from the back-office catalog. */
function titlesOf(admin: Catalog, engagement: Catalog): Record<string, string> {
  const named = (key: string) =>
    key.startsWith('engagement:') ? engagement[key.slice('engagement:'.length)] : admin[key];
  return Object.fromEntries(
    [...new Set([...Object.values(pageTitleKeys), orderKey])].map((key) => [key, named(key) ?? key]),
  );
}

export function meta({ matches, loaderData, location }: Route.MetaArgs) {
  const [section = '', id] = location.pathname.replace(/^\/admin\/?/, '').split('/');
  const titles = loaderData?.titles ?? {};
  const key =
    section === 'orders' && id
      ? orderKey
      : (Object.hasOwn(pageTitleKeys, section) && pageTitleKeys[section]) || 'nav.brand';
  const name = (titles[key] ?? key).replace('{id}', id ?? '');
  const brand = titles['nav.brand'] ?? 'Back office';
  const pattern = rootDataOf(matches)?.titles['title.withSite'] ?? '{page} | {site}';
  const title = name === brand ? brand : pattern.replace('{page}', name).replace('{site}', brand);
  return [{ title }, { name: 'robots', content: 'noindex, nofollow' }];
}

/** The signed-in staff member, for the pages inside this layout. */
export function useStaff(): Staff | null {
  return useRouteLoaderData<typeof loader>('admin')?.staff ?? null;
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const staff = loaderData.staff;
  const ready = staff && firstSignInStep(staff) === null;
  return (
    <>
      <nav
        className="navbar navbar-expand navbar-dark bg-dark px-3 flex-wrap"
        aria-label={t('admin:nav.label')}
      >
        <span className="navbar-brand">{t('admin:nav.brand')}</span>
        {ready && (
          <ul className="navbar-nav me-auto flex-wrap">
            <li className="nav-item">
              <NavLink className="nav-link" to="/admin/inbox">
                {t('admin:nav.inbox')}
              </NavLink>
            </li>
            {(staff.role === 'lead' || staff.role === 'admin') && (
              <li className="nav-item">
                <NavLink className="nav-link" to="/admin/board">
                  {t('admin:nav.board')}
                </NavLink>
              </li>
            )}
            {(staff.role === 'moderator' || staff.role === 'admin') && (
              <>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/members">
                    {t('admin:nav.members')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/reports">
                    {t('admin:nav.reports')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/photos">
                    {t('admin:nav.photos')}
                  </NavLink>
                </li>
              </>
            )}
            {(staff.role === 'moderator' || staff.role === 'admin') && (
              <li className="nav-item">
                <NavLink className="nav-link" to="/admin/profiles">
                  {t('admin:nav.profiles')}
                </NavLink>
              </li>
            )}
            {(staff.role === 'lead' || staff.role === 'admin') && (
              <>
                {/* Engagement: admins and the team lead (the `engage` right). */}
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/openers">
                    {t('engagement:nav.openers')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/mass-messages">
                    {t('engagement:nav.massMessages')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/stats">
                    {t('admin:nav.stats')}
                  </NavLink>
                </li>
              </>
            )}
            {staff.role === 'admin' && (
              <>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/sites">
                    {t('admin:nav.sites')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/numbers">
                    {t('admin:nav.numbers')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/orders">
                    {t('admin:nav.orders')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/bundles">
                    {t('admin:nav.bundles')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/discountcodes">
                    {t('admin:nav.discountcodes')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/winback">
                    {t('admin:nav.winback')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/gifts">
                    {t('admin:nav.gifts')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/templates">
                    {t('admin:nav.templates')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/staff">
                    {t('admin:nav.staff')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className="nav-link" to="/admin/audit">
                    {t('admin:nav.audit')}
                  </NavLink>
                </li>
              </>
            )}
            <li className="nav-item">
              <NavLink className="nav-link" to="/admin/account">
                {t('admin:nav.account')}
              </NavLink>
            </li>
          </ul>
        )}
        {staff && (
          <Form method="post" action="/admin/logout" className="ms-auto d-flex align-items-center gap-2">
            <span className="text-light small">{staff.name}</span>
            <button type="submit" className="btn btn-outline-light btn-sm">
              {t('admin:nav.signOut')}
            </button>
          </Form>
        )}
      </nav>
      <main id="main" className="flex-grow-1 container-fluid py-3">
        <Outlet />
      </main>
    </>
  );
}
