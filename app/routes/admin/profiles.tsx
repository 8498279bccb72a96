import { Form, Link, useNavigation } from 'react-router';
import { formError } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ProfileSite } from '#contract/admin-sites.ts';
import { genderOptions } from '#contract/profiles.ts';
import type { Route } from './+types/profiles';
import { whole } from './backoffice-form.tsx';
import { TableScroll } from './table-scroll.tsx';

const filterNames = ['site', 'q', 'gender', 'country', 'status'] as const;

type SiteOption = Pick<ProfileSite, 'id' | 'name'>;

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query: Partial<Record<(typeof filterNames)[number] | 'page', string>> = {};
  for (const name of [...filterNames, 'page'] as const) {
    const value = url.searchParams.get(name)?.trim();
    if (value) query[name] = name === 'country' ? value.toUpperCase() : value;
  }
  const api = staffApi(context.api);
  const [result, sites] = await Promise.all([
    api('GET /api/admin/profiles.php', { query }),
    api('GET /api/admin/profile-sites.php'),
  ]);
  if (!result.ok) throw new Response(null, { status: result.status });
  const siteOptions: SiteOption[] = sites.ok ? sites.data.sites.map(({ id, name }) => ({ id, name })) : [];
  return { ...result.data, sites: siteOptions, filters: query };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const profiles = form.getAll('profiles').map(Number).filter(Number.isInteger);
  const bulk = String(form.get('bulk') ?? '');
  const result = await staffApi(context.api)('POST /api/admin/profiles-bulk.php', {
    body:
      bulk === 'move' ? { action: 'move', profiles, site: whole(form, 'site') } : { action: bulk, profiles },
  });
  return result.ok ? { updated: result.data.updated } : formError(result);
}

/** Fictional profiles (moderators, admins): filters, their numbers, bulk disable / enable / move. */
export default function Profiles({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { profiles, total, page, pages, sites, filters } = loaderData;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const pageLink = (to: number) => `/admin/profiles?${new URLSearchParams({ ...filters, page: String(to) })}`;
  return (
    <div>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h4 me-auto mb-0">{t('admin:profiles.heading')}</h1>
        <Link to="/admin/profiles/new" className="btn btn-primary btn-sm">
          {t('admin:profiles.new')}
        </Link>
      </div>
      <Form method="get" className="row g-2 align-items-end mb-3" aria-label={t('admin:profiles.filters')}>
        <div className="col-12 col-sm-6 col-lg-3">
          <label htmlFor="filter-q" className="form-label small">
            {t('admin:profiles.search')}
          </label>
          <input
            id="filter-q"
            name="q"
            className="form-control form-control-sm"
            defaultValue={filters.q ?? ''}
          />
        </div>
        <div className="col-6 col-lg-2">
          <label htmlFor="filter-site" className="form-label small">
            {t('admin:fictional.site')}
          </label>
          <select
            id="filter-site"
            name="site"
            className="form-select form-select-sm"
            defaultValue={filters.site ?? ''}
          >
            <option value="">{t('admin:inbox.all')}</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
        <div className="col-6 col-lg-2">
          <label htmlFor="filter-gender" className="form-label small">
            {t('profile:field.gender')}
          </label>
          <select
            id="filter-gender"
            name="gender"
            className="form-select form-select-sm"
            defaultValue={filters.gender ?? ''}
          >
            <option value="">{t('admin:inbox.all')}</option>
            {genderOptions.map((gender) => (
              <option key={gender} value={gender}>
                {t(`profile:gender.${gender}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-6 col-lg-1">
          <label htmlFor="filter-country" className="form-label small">
            {t('profile:field.country')}
          </label>
          <input
            id="filter-country"
            name="country"
            maxLength={2}
            className="form-control form-control-sm"
            defaultValue={filters.country ?? ''}
          />
        </div>
        <div className="col-6 col-lg-2">
          <label htmlFor="filter-status" className="form-label small">
            {t('admin:fictional.status')}
          </label>
          <select
            id="filter-status"
            name="status"
            className="form-select form-select-sm"
            defaultValue={filters.status ?? ''}
          >
            <option value="">{t('admin:inbox.all')}</option>
            <option value="active">{t('admin:profileStatus.active')}</option>
            <option value="disabled">{t('admin:profileStatus.disabled')}</option>
          </select>
        </div>
        <div className="col-12 col-lg-2">
          <button type="submit" className="btn btn-outline-primary btn-sm w-100">
            {t('admin:inbox.apply')}
          </button>
        </div>
      </Form>
      {actionData && 'updated' in actionData && (
        <div className="alert alert-success" role="status">
          {t('admin:profiles.updated', { count: actionData.updated })}
        </div>
      )}
      {errors && (
        <div className="alert alert-danger" role="alert">
          {errors.body.fields?.profiles ? t('admin:profiles.noneSelected') : errors.body.message}
        </div>
      )}
      <Form method="post">
        <div className="d-flex flex-wrap gap-2 align-items-end mb-2">
          <div>
            <label htmlFor="bulk-action" className="form-label small">
              {t('admin:profiles.bulk')}
            </label>
            <select
              id="bulk-action"
              name="bulk"
              className="form-select form-select-sm"
              defaultValue="disable"
            >
              <option value="disable">{t('admin:profiles.bulkDisable')}</option>
              <option value="enable">{t('admin:profiles.bulkEnable')}</option>
              <option value="move">{t('admin:profiles.bulkMove')}</option>
            </select>
          </div>
          <div>
            <label htmlFor="bulk-site" className="form-label small">
              {t('admin:profiles.targetSite')}
            </label>
            <select id="bulk-site" name="site" className="form-select form-select-sm">
              {sites.map((site) => (
                <option key={site.id} value={site.id}>
                  {site.name}
                </option>
              ))}
            </select>
          </div>
          <button
            type="submit"
            className="btn btn-outline-danger btn-sm"
            disabled={navigation.state === 'submitting'}
          >
            {t('admin:profiles.applyBulk')}
          </button>
          <span className="ms-auto small text-body-secondary">
            {t('admin:profiles.total', { count: total })}
          </span>
        </div>
        <TableScroll label={t('admin:profiles.heading')}>
          <table className="table table-sm align-middle">
            <thead>
              <tr>
                <th>
                  <span className="visually-hidden">{t('admin:profiles.select')}</span>
                </th>
                <th>{t('profile:field.name')}</th>
                <th>{t('admin:fictional.site')}</th>
                <th>{t('profile:field.age')}</th>
                <th>{t('profile:field.country')}</th>
                <th>{t('admin:fictional.status')}</th>
                <th className="text-end">{t('admin:profileStats.conversations')}</th>
                <th className="text-end">{t('admin:profileStats.received')}</th>
                <th className="text-end">{t('admin:profileStats.replies')}</th>
                <th className="text-end">{t('admin:profileStats.revenue')}</th>
              </tr>
            </thead>
            <tbody>
              {profiles.map((profile) => (
                <tr key={profile.id}>
                  <td>
                    <input
                      type="checkbox"
                      name="profiles"
                      value={profile.id}
                      className="form-check-input"
                      aria-label={t('admin:profiles.selectOne', { name: profile.name })}
                    />
                  </td>
                  <td>
                    <Link to={`/admin/profiles/${profile.id}`} className="d-flex align-items-center gap-2">
                      {profile.main_image ? (
                        <img
                          src={profile.main_image.thumb_filename}
                          alt=""
                          width={32}
                          height={32}
                          className="rounded object-fit-cover"
                        />
                      ) : (
                        <span
                          className="d-inline-block rounded bg-secondary-subtle"
                          style={{ width: 32, height: 32 }}
                        />
                      )}
                      {profile.name}
                    </Link>
                  </td>
                  <td>{profile.site.name}</td>
                  <td>{profile.age}</td>
                  <td>{profile.country}</td>
                  <td>
                    <span
                      className={`badge ${profile.status === 'active' ? 'text-bg-success' : 'text-bg-secondary'}`}
                    >
                      {t(`admin:profileStatus.${profile.status}`)}
                    </span>
                  </td>
                  <td className="text-end">{profile.stats.conversations}</td>
                  <td className="text-end">{profile.stats.messages_received}</td>
                  <td className="text-end">{profile.stats.replies}</td>
                  <td className="text-end">{profile.stats.revenue_credits}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </Form>
      {pages > 1 && (
        <nav className="d-flex gap-2 align-items-center" aria-label={t('admin:audit.pages')}>
          {page > 1 && (
            <Link to={pageLink(page - 1)} className="btn btn-outline-secondary btn-sm">
              {t('admin:profiles.previous')}
            </Link>
          )}
          <span className="small">{t('admin:profiles.page', { page, pages })}</span>
          {page < pages && (
            <Link to={pageLink(page + 1)} className="btn btn-outline-secondary btn-sm">
              {t('admin:profiles.next')}
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
