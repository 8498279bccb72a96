import { Link } from 'react-router';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/sites';
import { languageName } from './admin-socket.ts';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const [sites, companies] = await Promise.all([
    api('GET /api/admin/sites.php'),
    api('GET /api/admin/companies.php'),
  ]);
  if (!sites.ok) throw new Response(null, { status: sites.status });
  return { sites: sites.data.sites, companies: companies.ok ? companies.data.companies : [] };
}

/** Every site (admins): its domain, language, countries, company and colour; a change is live at once. */
export default function Sites({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  const companyName = (id: number) =>
    loaderData.companies.find((company) => company.id === id)?.name ?? `#${id}`;
  return (
    <div>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h4 me-auto mb-0">{t('admin:sites.heading')}</h1>
        <Link to="/admin/companies" className="btn btn-outline-secondary btn-sm">
          {t('admin:nav.companies')}
        </Link>
        <Link to="/admin/sites/new" className="btn btn-primary btn-sm">
          {t('admin:sites.new')}
        </Link>
      </div>
      <TableScroll label={t('admin:sites.heading')}>
        <table className="table table-sm align-middle">
          <thead>
            <tr>
              <th>{t('admin:site.name')}</th>
              <th>{t('admin:site.domain')}</th>
              <th>{t('admin:site.domainLanguage')}</th>
              <th>{t('admin:site.countries')}</th>
              <th>{t('admin:site.company')}</th>
              <th>{t('admin:site.themeColor')}</th>
              <th>
                <span className="visually-hidden">{t('admin:member.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {loaderData.sites.map((site) => (
              <tr key={site.id}>
                <td>
                  {site.name}{' '}
                  {site.is_default && (
                    <span className="badge text-bg-secondary">{t('admin:sites.default')}</span>
                  )}
                </td>
                <td className="text-break">{site.domain}</td>
                <td>{languageName(site.domain_language, locale)}</td>
                <td>{site.countries.join(', ')}</td>
                <td>{companyName(site.company_id)}</td>
                <td>
                  <span
                    className="d-inline-block rounded border align-middle"
                    style={{ width: 20, height: 20, background: site.theme_color }}
                    title={site.theme_color}
                  />
                </td>
                <td>
                  <Link to={`/admin/sites/${site.id}`} className="btn btn-outline-primary btn-sm">
                    {t('admin:sites.edit')}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
