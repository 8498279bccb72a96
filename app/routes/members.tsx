import { useEffect, useState } from 'react';
import { Offcanvas } from 'react-bootstrap';
import { Sliders, XLg } from 'react-bootstrap-icons';
import { Form, Link, type ShouldRevalidateFunctionArgs, useNavigation, useSearchParams } from 'react-router';
import { ProfileGrid } from '#app/components/profile-card.tsx';
import { useSignupModal } from '#app/components/signup-modal.tsx';
import { api, serverApi } from '#app/lib/api.ts';
import { countryName } from '#app/lib/countries.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useShownOnce } from '#app/lib/use-shown-once.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Profile } from '#contract/profiles.ts';
import type { Route } from './+types/members';

export const handle = { membersArea: true };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.members');
}

const filterNames = ['gender', 'country', 'countryregion', 'min_age', 'max_age'] as const;
/**
 * "Load more" keeps the number of pages shown in the URL (?page=3 shows pages 1 to 3), so back from a
 * profile renders the same list and the browser's scroll position fits it. Each page after the first
 * is read after the previous one's next_cursor (keyset: no rows skipped, none shown twice).
 */
const maxPagesShown = 10;

/** The filters of the URL, as the search takes them (absent ones fall back to the member's defaults). */
function filterQuery(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of filterNames) {
    const value = params.get(name);
    if (value) query[name] = value;
  }
  return query;
}

/** Only the page count grew: the page has appended that page itself, nothing to load again. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const current = new URLSearchParams(currentUrl.search);
  const next = new URLSearchParams(nextUrl.search);
  const pageOf = (params: URLSearchParams) => Number(params.get('page')) || 1;
  const grew = pageOf(next) > pageOf(current);
  current.delete('page');
  next.delete('page');
  current.delete('reactivated');
  next.delete('reactivated');
  current.sort();
  next.sort();
  return grew && current.toString() === next.toString() ? false : defaultShouldRevalidate;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = filterQuery(url.searchParams);
  const shownPages = Math.min(maxPagesShown, Math.max(1, Number(url.searchParams.get('page')) || 1));
  const country = url.searchParams.get('country');
  const api = serverApi(context.api);
  const readPages = async () => {
    const first = await api('GET /api/search.php', { query });
    const pages = first.ok ? [first.data] : [];
    for (let cursor = pages[0]?.next_cursor; cursor && pages.length < shownPages; ) {
      const next = await api('GET /api/search.php', { query: { ...query, cursor, page: pages.length + 1 } });
      if (!next.ok) break;
      pages.push(next.data);
      cursor = next.data.next_cursor;
    }
    return { first, pages };
  };
  const [{ first, pages }, regionsAnswer] = await Promise.all([
    readPages(),
    country && /^[A-Z]{2}$/.test(country) ? api('GET /api/regions.php', { query: { country } }) : null,
  ]);
  const last = pages.at(-1);
  const result =
    first.ok && last
      ? {
          ...first.data,
          profiles: pages.flatMap((page) => page.profiles),
          page: last.page,
          pages: last.pages,
          next_cursor: last.next_cursor ?? null,
        }
      : null;
  // The regions of the country searched, also when it came from the member's profile.
  const appliedCountry = result?.applied.country;
  const regions =
    regionsAnswer ??
    (appliedCountry ? await api('GET /api/regions.php', { query: { country: appliedCountry } }) : null);
  return {
    result,
    visitorMustSignUp: first.status === 403,
    regions: regions?.ok ? regions.data.regions : [],
  };
}

type Filters = { gender: string; country: string; countryregion: string; min_age: string; max_age: string };

/** Ages as typed: each 18–99, and "from" not above "to". Null when fine, else the message key. */
function ageProblem(min: string, max: string): 'range' | 'order' | null {
  const inRange = (value: string) =>
    value === '' || (/^\d+$/.test(value) && Number(value) >= 18 && Number(value) <= 99);
  if (!inRange(min) || !inRange(max)) return 'range';
  if (min !== '' && max !== '' && Number(min) > Number(max)) return 'order';
  return null;
}

function FilterForm({
  filters,
  regions,
  onDone,
}: {
  filters: Filters;
  regions: { code: string; name: string }[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { settings, locale } = useRootData();
  const [minAge, setMinAge] = useState(filters.min_age);
  const [maxAge, setMaxAge] = useState(filters.max_age);
  const [country, setCountry] = useState(filters.country);
  const [touched, setTouched] = useState(false);
  const problem = ageProblem(minAge, maxAge);
  const shows = (field: string) =>
    settings.search_fields.length === 0 || settings.search_fields.includes(field);
  return (
    <Form
      method="get"
      action="/members"
      className="search-filters"
      aria-label={t('profile:search.filters')}
      noValidate
      onSubmit={(event) => {
        setTouched(true);
        if (problem) {
          event.preventDefault();
          return;
        }
        onDone();
      }}
    >
      <div className={`mb-3 ${shows('gender') ? '' : 'd-none'}`}>
        <label htmlFor="search-gender" className="form-label">
          {t('discover:search.showMe')}
        </label>
        <select id="search-gender" name="gender" className="form-select" defaultValue={filters.gender}>
          <option value="any">{t('profile:search.genderAny')}</option>
          <option value="female">{t('profile:seeking.female')}</option>
          <option value="male">{t('profile:seeking.male')}</option>
        </select>
      </div>
      <div className={`mb-3 ${shows('country') ? '' : 'd-none'}`}>
        <label htmlFor="search-country" className="form-label">
          {t('profile:field.country')}
        </label>
        <select
          id="search-country"
          name="country"
          className="form-select"
          value={country}
          onChange={(event) => setCountry(event.target.value)}
        >
          <option value="any">{t('discover:search.allCountries')}</option>
          {settings.countries.map((code) => (
            <option key={code} value={code}>
              {countryName(code, locale)}
            </option>
          ))}
        </select>
      </div>
      <div className={`mb-3 ${shows('countryregion') ? '' : 'd-none'}`}>
        <label htmlFor="search-region" className="form-label">
          {t('profile:field.region')}
        </label>
        <select
          id="search-region"
          name="countryregion"
          className="form-select"
          defaultValue={filters.countryregion}
          disabled={regions.length === 0 || country !== filters.country}
        >
          <option value="">{t('profile:search.anyRegion')}</option>
          {regions.map((region) => (
            <option key={region.code} value={region.code}>
              {region.name}
            </option>
          ))}
        </select>
      </div>
      <fieldset className={`mb-3 ${shows('age') ? '' : 'd-none'}`}>
        <legend className="form-label fs-6">{t('discover:search.age')}</legend>
        <div className="d-flex gap-2 align-items-center">
          <label htmlFor="search-min-age" className="visually-hidden">
            {t('profile:search.minAge')}
          </label>
          <input
            id="search-min-age"
            name="min_age"
            type="number"
            inputMode="numeric"
            min={18}
            max={99}
            placeholder="18"
            className={`form-control ${touched && problem ? 'is-invalid' : ''}`}
            value={minAge}
            onChange={(event) => setMinAge(event.target.value)}
            aria-invalid={touched && problem !== null}
            aria-describedby={touched && problem ? 'search-age-error' : undefined}
          />
          <span aria-hidden="true">–</span>
          <label htmlFor="search-max-age" className="visually-hidden">
            {t('profile:search.maxAge')}
          </label>
          <input
            id="search-max-age"
            name="max_age"
            type="number"
            inputMode="numeric"
            min={18}
            max={99}
            placeholder="99"
            className={`form-control ${touched && problem ? 'is-invalid' : ''}`}
            value={maxAge}
            onChange={(event) => setMaxAge(event.target.value)}
            aria-invalid={touched && problem !== null}
            aria-describedby={touched && problem ? 'search-age-error' : undefined}
          />
        </div>
        {touched && problem && (
          <div id="search-age-error" className="invalid-feedback d-block" role="alert">
            {t(`discover:search.ageError.${problem}`)}
          </div>
        )}
      </fieldset>
      <div className="d-grid gap-2">
        <button type="submit" className="btn btn-primary" data-testid="apply-filters">
          {t('discover:search.apply')}
        </button>
        <Link to="/members" className="btn btn-link" onClick={onDone}>
          {t('discover:search.reset')}
        </Link>
      </div>
    </Form>
  );
}

/** Search, and the home of the members area (spec §2): people first, filters in a sheet. */
export default function Members({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const signupModal = useSignupModal();
  const [sheetOpen, setSheetOpen] = useState(false);
  const sheetMounted = useShownOnce(sheetOpen);
  const { result, visitorMustSignUp, regions } = loaderData;
  /** Pages appended in the browser, for the loader's answer they continue (a new search drops them). */
  const [more, setMore] = useState<{
    of: typeof result;
    profiles: Profile[];
    page: number;
    nextCursor: string | null;
  } | null>(null);
  const [fetchingMore, setFetchingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);
  const appended = more && more.of === result ? more : null;
  const loadingMore =
    fetchingMore || (navigation.state === 'loading' && navigation.location.pathname === '/members');
  useEffect(() => {
    if (navigation.state === 'idle') setSheetOpen(false);
  }, [navigation.state]);

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

  const applied = result?.applied ?? { gender: null, country: null, mutual: false };
  const filters: Filters = {
    gender: params.get('gender') ?? applied.gender ?? 'any',
    country: params.get('country') ?? applied.country ?? 'any',
    countryregion: params.get('countryregion') ?? '',
    min_age: params.get('min_age') ?? '',
    max_age: params.get('max_age') ?? '',
  };
  const chips = [
    filters.gender !== 'any' ? t(`profile:seeking.${filters.gender}`) : t('profile:search.genderAny'),
    filters.country !== 'any' ? countryName(filters.country, locale) : t('discover:search.allCountries'),
    regions.find((region) => region.code === filters.countryregion)?.name,
    filters.min_age || filters.max_age
      ? t('discover:search.ageRange', { min: filters.min_age || 18, max: filters.max_age || 99 })
      : null,
  ].filter((chip): chip is string => Boolean(chip));
  const page = appended?.page ?? result?.page ?? 1;
  const nextCursor = appended ? appended.nextCursor : (result?.next_cursor ?? null);
  const moreParams = () => {
    const next = new URLSearchParams(params);
    next.delete('reactivated');
    next.set('page', String(page + 1));
    return next;
  };
  /** The next page after the cursor, appended in place; the URL then counts it for back (no reload). */
  const loadMore = async (event: React.MouseEvent) => {
    if (!result || !nextCursor || fetchingMore) return;
    event.preventDefault();
    setFetchingMore(true);
    setMoreFailed(false);
    const answer = await api('GET /api/search.php', {
      query: { ...filterQuery(params), cursor: nextCursor, page: page + 1 },
    });
    setFetchingMore(false);
    if (!answer.ok) {
      setMoreFailed(true);
      return;
    }
    const known = new Set([...result.profiles, ...(appended?.profiles ?? [])].map((profile) => profile.id));
    setMore({
      of: result,
      profiles: [...(appended?.profiles ?? []), ...answer.data.profiles.filter((p) => !known.has(p.id))],
      page: answer.data.page,
      nextCursor: answer.data.next_cursor ?? null,
    });
    setParams(moreParams(), { replace: true, preventScrollReset: true });
  };
  const profiles: Profile[] = [...(result?.profiles ?? []), ...(appended?.profiles ?? [])];
  const canLoadMore = result !== null && nextCursor !== null && page < maxPagesShown;

  return (
    <div className="container py-3 search-page">
      <div className="search-head">
        <div>
          <h1 className="h3 mb-0">{t('page.members')}</h1>
          {result && (
            <p className="text-body-secondary small mb-0" role="status" data-testid="result-count">
              {result.total_capped
                ? t('discover:search.resultsCapped', { count: result.total })
                : t('profile:search.results', { count: result.total })}
            </p>
          )}
        </div>
        <button
          type="button"
          className="btn btn-outline-primary search-filter-button"
          onClick={() => setSheetOpen(true)}
          aria-haspopup="dialog"
          data-testid="open-filters"
        >
          <Sliders aria-hidden="true" className="me-2" />
          {t('profile:search.filters')}
        </button>
      </div>
      <ul className="search-chips list-unstyled" aria-label={t('discover:search.current')}>
        {chips.map((chip) => (
          <li key={chip}>
            <button type="button" className="search-chip" onClick={() => setSheetOpen(true)}>
              {chip}
            </button>
          </li>
        ))}
      </ul>
      {params.get('reactivated') === '1' && (
        <div className="alert alert-success" role="status" data-testid="welcome-back">
          {t('auth:login.reactivated')}
        </div>
      )}
      {applied.mutual && <p className="small text-body-secondary mb-3">{t('discover:search.mutualHint')}</p>}

      {sheetMounted && (
        <Offcanvas
          show={sheetOpen}
          onHide={() => setSheetOpen(false)}
          placement="end"
          className="search-sheet"
          aria-labelledby="search-sheet-title"
        >
          <Offcanvas.Header className="search-sheet-header">
            <Offcanvas.Title as="h2" id="search-sheet-title" className="h5 mb-0">
              {t('profile:search.filters')}
            </Offcanvas.Title>
            <button
              type="button"
              className="btn btn-light rounded-circle search-sheet-close"
              onClick={() => setSheetOpen(false)}
              aria-label={t('discover:close')}
            >
              <XLg aria-hidden="true" />
            </button>
          </Offcanvas.Header>
          <Offcanvas.Body>
            <FilterForm
              key={params.toString()}
              filters={filters}
              regions={regions}
              onDone={() => setSheetOpen(false)}
            />
          </Offcanvas.Body>
        </Offcanvas>
      )}

      {result && (
        <>
          {profiles.length > 0 ? (
            <ProfileGrid profiles={profiles} headingLevel={2} />
          ) : (
            <div className="empty-state">
              <p className="mb-3">{t('profile:search.noResults')}</p>
              <button type="button" className="btn btn-primary" onClick={() => setSheetOpen(true)}>
                {t('discover:search.widen')}
              </button>
            </div>
          )}
          {canLoadMore && (
            <div className="text-center my-4">
              {moreFailed && (
                <p className="text-danger small" role="alert">
                  {t('discover:search.moreFailed')}
                </p>
              )}
              <Link
                to={`?${moreParams()}`}
                preventScrollReset
                replace
                className="btn btn-outline-primary btn-lg"
                data-testid="load-more"
                aria-busy={loadingMore}
                onClick={(event) => void loadMore(event)}
              >
                {loadingMore ? t('discover:search.loading') : t('discover:search.more')}
              </Link>
              <p className="small text-body-secondary mt-2 mb-0">
                {t('discover:search.shown', { count: profiles.length, total: result.total })}
              </p>
            </div>
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
