import { useTranslation } from '#app/lib/use-translation.ts';

/**
 * The period (from, to) and site fields the back office's figures are filtered by, inside a GET
 * form of the page's own; the column classes fit each page's row of fields.
 */
export function PeriodAndSiteFields({
  idPrefix,
  filters,
  sites,
  dateColumn,
  siteColumn,
}: {
  idPrefix: string;
  filters: { from: string; to: string; site: string };
  sites: { id: number; name: string }[];
  dateColumn: string;
  siteColumn: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className={dateColumn}>
        <label htmlFor={`${idPrefix}-from`} className="form-label">
          {t('admin:numbers.from')}
        </label>
        <input
          id={`${idPrefix}-from`}
          name="from"
          type="date"
          className="form-control"
          defaultValue={filters.from}
        />
      </div>
      <div className={dateColumn}>
        <label htmlFor={`${idPrefix}-to`} className="form-label">
          {t('admin:numbers.to')}
        </label>
        <input
          id={`${idPrefix}-to`}
          name="to"
          type="date"
          className="form-control"
          defaultValue={filters.to}
        />
      </div>
      <div className={siteColumn}>
        <label htmlFor={`${idPrefix}-site`} className="form-label">
          {t('admin:numbers.site')}
        </label>
        <select id={`${idPrefix}-site`} name="site" className="form-select" defaultValue={filters.site}>
          <option value="">{t('admin:numbers.allSites')}</option>
          {sites.map((site) => (
            <option key={site.id} value={site.id}>
              {site.name}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
