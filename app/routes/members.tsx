import { useTranslation } from 'react-i18next';
import { Form, Link, useSearchParams, useSubmit } from 'react-router';
import type { SearchResponse } from '#contract/profiles.ts';
import { ProfileGrid } from '../components/profile-card.tsx';
import { useSignupModal } from '../components/signup-modal.tsx';
import { countryName } from '../lib/countries.ts';
import { pageMeta } from '../lib/meta.ts';
import { useRootData } from '../lib/root-data.ts';
import type { Route } from './+types/members';

export const handle = { membersArea: true };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.members');
}

const filterNames = ['gender', 'country', 'countryregion', 'min_age', 'max_age', 'page'] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const name of filterNames) {
    const value = url.searchParams.get(name);
    if (value) query.set(name, value);
  }
  const country = url.searchParams.get('country');
  const [result, regions] = await Promise.all([
    context.api<SearchResponse>(`/api/search.php?${query}`),
    country && /^[A-Z]{2}$/.test(country)
      ? context.api<{ regions: { code: string; name: string }[] }>(`/api/regions.php?country=${country}`)
      : null,
  ]);
  return {
    result: result.ok ? result.data : null,
    visitorMustSignUp: result.status === 403,
    regions: regions?.ok ? regions.data.regions : [],
  };
}

/** Search, and the home of the members area (spec §2). The filters live in the URL. */
export default function Members({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings, locale } = useRootData();
  const [params] = useSearchParams();
  const submit = useSubmit();
  const signupModal = useSignupModal();
  const { result, visitorMustSignUp, regions } = loaderData;
  // The site chooses which filters its search shows (settings.search_fields); none listed means all.
  const shows = (field: string) =>
    settings.search_fields.length === 0 || settings.search_fields.includes(field);
  const pageLink = (page: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(page));
    return `?${next}`;
  };

  if (visitorMustSignUp) {
    return (
      <div className="container py-5 text-center" style={{ maxWidth: 560 }}>
        <h1 className="h3">{t('page.members')}</h1>
        <p className="lead">{t('profile:search.signupCta')}</p>
        <Link
          to="/signup"
          className="btn btn-primary btn-lg"
          onClick={(event) => {
            if (!signupModal) return;
            event.preventDefault();
            signupModal.open();
          }}
        >
          {t('home.signup')}
        </Link>
      </div>
    );
  }

  return (
    <div className="container py-4">
      <h1 className="h3 mb-3">{t('page.members')}</h1>
      <Form
        method="get"
        className="row g-2 align-items-end mb-4"
        aria-label={t('profile:search.filters')}
        onChange={(event) => {
          const target = event.target as HTMLElement;
          if (target.tagName === 'SELECT') void submit(event.currentTarget);
        }}
      >
        <div className={`col-6 col-md-2 ${shows('gender') ? '' : 'd-none'}`}>
          <label htmlFor="search-gender" className="form-label small">
            {t('profile:field.gender')}
          </label>
          <select
            id="search-gender"
            name="gender"
            className="form-select"
            defaultValue={params.get('gender') ?? ''}
          >
            <option value="">{t('profile:search.genderAny')}</option>
            <option value="female">{t('profile:seeking.female')}</option>
            <option value="male">{t('profile:seeking.male')}</option>
          </select>
        </div>
        <div className={`col-6 col-md-3 ${shows('country') ? '' : 'd-none'}`}>
          <label htmlFor="search-country" className="form-label small">
            {t('profile:field.country')}
          </label>
          <select
            id="search-country"
            name="country"
            className="form-select"
            defaultValue={params.get('country') ?? ''}
          >
            <option value="">{t('profile:search.genderAny')}</option>
            {settings.countries.map((code) => (
              <option key={code} value={code}>
                {countryName(code, locale)}
              </option>
            ))}
          </select>
        </div>
        <div className={`col-12 col-md-3 ${shows('countryregion') ? '' : 'd-none'}`}>
          <label htmlFor="search-region" className="form-label small">
            {t('profile:field.region')}
          </label>
          <select
            id="search-region"
            name="countryregion"
            className="form-select"
            defaultValue={params.get('countryregion') ?? ''}
            disabled={regions.length === 0}
          >
            <option value="">{t('profile:search.anyRegion')}</option>
            {regions.map((region) => (
              <option key={region.code} value={region.code}>
                {region.name}
              </option>
            ))}
          </select>
        </div>
        <div className={`col-4 col-md-1 ${shows('age') ? '' : 'd-none'}`}>
          <label htmlFor="search-min-age" className="form-label small">
            {t('profile:search.minAge')}
          </label>
          <input
            id="search-min-age"
            name="min_age"
            type="number"
            min={18}
            max={99}
            className="form-control"
            defaultValue={params.get('min_age') ?? ''}
          />
        </div>
        <div className={`col-4 col-md-1 ${shows('age') ? '' : 'd-none'}`}>
          <label htmlFor="search-max-age" className="form-label small">
            {t('profile:search.maxAge')}
          </label>
          <input
            id="search-max-age"
            name="max_age"
            type="number"
            min={18}
            max={99}
            className="form-control"
            defaultValue={params.get('max_age') ?? ''}
          />
        </div>
        <div className="col-4 col-md-2 d-grid">
          <button type="submit" className="btn btn-primary">
            {t('profile:search.submit')}
          </button>
        </div>
      </Form>

      {result && (
        <>
          <p className="text-body-secondary" role="status" data-testid="result-count">
            {t('profile:search.results', { count: result.total })}
          </p>
          {result.profiles.length > 0 ? (
            <ProfileGrid profiles={result.profiles} />
          ) : (
            <p>{t('profile:search.noResults')}</p>
          )}
          {result.pages > 1 && (
            <nav
              aria-label={t('profile:search.page', { page: result.page, pages: result.pages })}
              className="d-flex justify-content-between align-items-center my-4"
            >
              {result.page > 1 ? (
                <Link to={pageLink(result.page - 1)} className="btn btn-outline-primary">
                  {t('profile:search.previous')}
                </Link>
              ) : (
                <span />
              )}
              <span className="small text-body-secondary">
                {t('profile:search.page', { page: result.page, pages: result.pages })}
              </span>
              {result.page < result.pages ? (
                <Link to={pageLink(result.page + 1)} className="btn btn-outline-primary">
                  {t('profile:search.next')}
                </Link>
              ) : (
                <span />
              )}
            </nav>
          )}
          {result.similar.length > 0 && (
            <section className="mt-5">
              <h2 className="h5">{t('profile:search.similar')}</h2>
              <ProfileGrid profiles={result.similar} />
            </section>
          )}
        </>
      )}
    </div>
  );
}
