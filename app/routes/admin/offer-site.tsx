import { Form } from 'react-router';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { AdminField } from './backoffice-form.tsx';
import type { OfferSite, OfferSiteFilter } from './offer-site.server.ts';

/** Which site an offer belongs to in the list: the site's name, or "All sites". */
export function OfferSiteCell({ site }: { site: OfferSite | null }) {
  const { t } = useTranslation();
  return site ? (
    <span className="badge text-bg-info" data-testid="offer-site">
      {site.name}
    </span>
  ) : (
    <span className="text-body-secondary small" data-testid="offer-site">
      {t('admin:offerSite.all')}
    </span>
  );
}

/** The editor's site selector: "All sites" (the default a site's own offers override) or one site. */
export function OfferSiteSelect({
  sites,
  value,
  errors,
  hint,
}: {
  sites: OfferSite[];
  value: OfferSite | null | undefined;
  errors: FormErrors | undefined;
  hint: string;
}) {
  const { t } = useTranslation();
  return (
    <AdminField name="site" label={t('admin:offerSite.label')} errors={errors} hint={hint}>
      {({ id, invalid, describedBy }) => (
        <select
          id={id}
          name="site"
          className={`form-select${invalid ? ' is-invalid' : ''}`}
          defaultValue={value?.id ?? ''}
          aria-describedby={describedBy}
        >
          <option value="">{t('admin:offerSite.all')}</option>
          {sites.map((site) => (
            <option key={site.id} value={site.id}>
              {site.name}
            </option>
          ))}
        </select>
      )}
    </AdminField>
  );
}

/** The list's filter by site (a GET form: the address keeps it). */
export function OfferSiteFilterForm({
  path,
  sites,
  filter,
}: {
  path: string;
  sites: OfferSite[];
  filter: OfferSiteFilter;
}) {
  const { t } = useTranslation();
  return (
    <Form method="get" action={path} className="row g-2 align-items-end mb-3" data-testid="offer-site-filter">
      <div className="col-8 col-sm-6 col-lg-5">
        <label htmlFor={`${path}-site-filter`} className="form-label small mb-1">
          {t('admin:offerSite.filterLabel')}
        </label>
        <select
          id={`${path}-site-filter`}
          name="site"
          className="form-select form-select-sm"
          defaultValue={filter === 'any' ? '' : String(filter)}
        >
          <option value="">{t('admin:offerSite.filterAny')}</option>
          <option value="shared">{t('admin:offerSite.filterShared')}</option>
          {sites.map((site) => (
            <option key={site.id} value={site.id}>
              {site.name}
            </option>
          ))}
        </select>
      </div>
      <div className="col-auto">
        <button type="submit" className="btn btn-outline-secondary btn-sm">
          {t('admin:offerSite.show')}
        </button>
      </div>
    </Form>
  );
}
