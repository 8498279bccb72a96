import { Fragment, useEffect, useRef, useState } from 'react';
import {
  Form,
  Link,
  redirect,
  useNavigation,
  useRevalidator,
  useSearchParams,
  useSubmit,
} from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { useStaff } from '#app/layouts/admin-layout.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { staffBrowserApi } from '#app/lib/staff-api.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { InboxItem, InboxOrder, InboxPage } from '#contract/admin.ts';
import { isLocale, locales } from '#contract/locales.ts';
import type { Route } from './+types/inbox';
import { formatSeconds, languageName, useAdminEvents } from './admin-socket.ts';
import { applyQueueEvent, type QueueState } from './queue-state.ts';
import { isNextShortcut, useKeydown } from './shortcuts.ts';

/** The typed query of the queue call from the page's own (checked by queueQuery). */
function inboxQueryOf(query: URLSearchParams) {
  const language = query.get('language');
  const cursor = query.get('cursor');
  return {
    ...(query.get('site') ? { site: Number(query.get('site')) } : {}),
    ...(language && isLocale(language) ? { language } : {}),
    order: query.get('order') === 'oldest' ? ('oldest' as const) : ('value' as const),
    ...(cursor ? { cursor } : {}),
  };
}

/** The queue's query from the page's own: site, language and order (value unless asked otherwise). */
function queueQuery(params: URLSearchParams): URLSearchParams {
  const query = new URLSearchParams();
  const site = params.get('site');
  if (site && /^\d{1,9}$/.test(site)) query.set('site', site);
  const language = params.get('language');
  if (language && isLocale(language)) query.set('language', language);
  if (params.get('order') === 'oldest') query.set('order', 'oldest');
  return query;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const query = queueQuery(new URL(request.url).searchParams);
  const call = staffApi(context.api);
  const [inbox, stats] = await Promise.all([
    call('GET /api/admin/inbox.php', { query: inboxQueryOf(query) }),
    call('GET /api/admin/operator-stats.php'),
  ]);
  return {
    page: inbox.ok ? inbox.data : { conversations: [], claimed: [], next_cursor: null },
    stats: stats.ok ? stats.data : null,
    query: query.toString(),
  };
}

/** "Next": the best waiting conversation is claimed for the operator and opened. */
export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const site = Number(formText(form, 'site'));
  const language = formText(form, 'language');
  const result = await staffApi(context.api)('POST /api/admin/next.php', {
    body: {
      ...(site > 0 ? { site } : {}),
      ...(isLocale(language) ? { language } : {}),
    },
  });
  if (!result.ok) return formError(result);
  throw redirect(`/admin/conversations/${result.data.conversation.id}`);
}

/** Re-renders every 30 s so waiting times move on (the data itself comes live over the socket). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function fromPage(page: InboxPage): QueueState {
  return { conversations: page.conversations, claimed: page.claimed, nextCursor: page.next_cursor };
}

/**
 * The operators' queue, most valuable first (or oldest first), patched live from the rows the
 * socket sends; "Next" (N or Alt+N) claims the best one and opens it.
 */
export default function Inbox({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const staff = useStaff();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [searchParams, setSearchParams] = useSearchParams();
  const { page, stats, query } = loaderData;
  const [queue, setQueue] = useState<QueueState>(() => fromPage(page));
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => setQueue(fromPage(page)), [page]);
  const now = useNow();
  const filters = new URLSearchParams(query);
  const order: InboxOrder = filters.get('order') === 'oldest' ? 'oldest' : 'value';
  const siteFilter = filters.get('site') ?? '';
  const languageFilter = filters.get('language') ?? '';
  const view = useRef({ order, site: siteFilter, language: languageFilter });
  view.current = { order, site: siteFilter, language: languageFilter };
  const everConnected = useRef(false);

  const status = useAdminEvents((event) => {
    if (event.type === 'ready') {
      // After a reconnect, what happened meanwhile is fetched once; live rows patch it from then on.
      if (everConnected.current) void revalidator.revalidate();
      everConnected.current = true;
      return;
    }
    setQueue((state) =>
      applyQueueEvent(state, event, {
        order: view.current.order,
        site: view.current.site ? Number(view.current.site) : null,
        language: view.current.language || null,
        now: Date.now(),
      }),
    );
  });

  const nextForm = useRef<HTMLFormElement>(null);
  useKeydown((event) => {
    if (!isNextShortcut(event) || event.repeat || !nextForm.current) return;
    event.preventDefault();
    void submit(nextForm.current);
  });

  const changeFilter = (name: 'site' | 'language' | 'order', value: string) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearchParams(next, { preventScrollReset: true });
  };

  const loadMore = async () => {
    if (!queue.nextCursor) return;
    setLoadingMore(true);
    const more = new URLSearchParams(query);
    more.set('cursor', queue.nextCursor);
    try {
      const answer = await staffBrowserApi('GET /api/admin/inbox.php', { query: inboxQueryOf(more) });
      if (!answer.ok) throw new Error(answer.error.message || answer.code);
      const next = answer.data;
      setQueue((state) => ({
        ...state,
        conversations: [
          ...state.conversations,
          ...next.conversations.filter((row) => !state.conversations.some((known) => known.id === row.id)),
        ],
        nextCursor: next.next_cursor,
      }));
    } catch (error) {
      reportCaught('loading more of the queue', error);
    } finally {
      setLoadingMore(false);
    }
  };

  const locale = i18n.language;
  const sites = stats?.waiting ?? [];
  const claiming = navigation.state !== 'idle' && navigation.formAction?.startsWith('/admin/inbox') === true;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;

  const row = (item: InboxItem) => {
    const waited = Math.max(0, Math.round((now - Date.parse(item.waiting_since)) / 1000));
    const mine = item.claimed_by?.id === staff?.id;
    const value = item.member_value;
    return (
      <li key={item.id} className="list-group-item" data-conversation={item.id}>
        <Link
          to={`/admin/conversations/${item.id}`}
          className="stretched-link text-decoration-none text-body"
        >
          <div className="d-flex flex-wrap gap-2 align-items-baseline">
            <strong>{t('admin:inbox.memberAge', { name: item.member.name, age: item.member.age })}</strong>
            <span className="small">{t('admin:inbox.toProfile', { profile: item.profile.name })}</span>
            <span className="ms-auto small text-nowrap">
              {t('admin:inbox.waiting', { time: formatSeconds(waited) })}
            </span>
          </div>
        </Link>
        <div className="d-flex flex-wrap gap-1 align-items-center small mt-1">
          <span className={`badge ${value.paid_user ? 'text-bg-success' : 'text-bg-light border'}`}>
            {value.paid_user ? t('admin:inbox.paying') : t('admin:inbox.free')}
          </span>
          <span className="badge text-bg-light border">
            {t('admin:inbox.credits', { count: value.credits })}
          </span>
          <span className="badge text-bg-light border">{item.site.name}</span>
          <span className="badge text-bg-light border">{languageName(item.member_language, locale)}</span>
          <span className="text-body-secondary">{item.member.country}</span>
        </div>
        <div className="text-truncate small mt-1">
          {item.last_message.text ?? (item.last_message.kind === 'gift' ? '🎁' : '📷')}
        </div>
        {item.claimed_by && (
          <span className={`badge ${mine ? 'text-bg-primary' : 'text-bg-warning'} mt-1`}>
            {mine
              ? t('admin:inbox.claimedByYou')
              : t('admin:inbox.claimedBy', { name: item.claimed_by.name })}
          </span>
        )}
      </li>
    );
  };

  return (
    <div className="row g-3">
      <div className="col-12 col-lg-9">
        <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
          <h1 className="h4 mb-0 me-auto">{t('admin:inbox.heading')}</h1>
          <span
            className={`badge ${status === 'ready' ? 'text-bg-success' : 'text-bg-secondary'}`}
            data-testid="live-status"
          >
            {status === 'ready' ? t('admin:inbox.live') : t('admin:inbox.connecting')}
          </span>
        </div>
        <Form method="post" ref={nextForm} className="d-flex flex-wrap align-items-center gap-2 mb-3">
          <input type="hidden" name="site" value={siteFilter} />
          <input type="hidden" name="language" value={languageFilter} />
          <button
            type="submit"
            className="btn btn-primary"
            aria-keyshortcuts="N Alt+N"
            disabled={claiming}
            data-testid="claim-next"
          >
            {t('admin:inbox.next')}
          </button>
          <span className="small text-body-secondary">
            {t('admin:inbox.nextShortcut', { key: 'N', alt: 'Alt+N' })}
          </span>
        </Form>
        <FormAlert errors={errors} />
        <fieldset className="row g-2 mb-3">
          <legend className="visually-hidden">{t('admin:inbox.filters')}</legend>
          <div className="col-12 col-sm-4">
            <label className="form-label small mb-0" htmlFor="filter-site">
              {t('admin:inbox.site')}
            </label>
            <select
              id="filter-site"
              value={siteFilter}
              onChange={(event) => changeFilter('site', event.target.value)}
              className="form-select form-select-sm"
            >
              <option value="">{t('admin:inbox.all')}</option>
              {sites.map((site) => (
                <option key={site.site} value={site.site}>
                  {site.name}
                </option>
              ))}
            </select>
          </div>
          <div className="col-6 col-sm-4">
            <label className="form-label small mb-0" htmlFor="filter-language">
              {t('admin:inbox.language')}
            </label>
            <select
              id="filter-language"
              value={languageFilter}
              onChange={(event) => changeFilter('language', event.target.value)}
              className="form-select form-select-sm"
            >
              <option value="">{t('admin:inbox.all')}</option>
              {locales.map((code) => (
                <option key={code} value={code}>
                  {languageName(code, locale)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-6 col-sm-4">
            <label className="form-label small mb-0" htmlFor="filter-order">
              {t('admin:inbox.order')}
            </label>
            <select
              id="filter-order"
              value={order}
              onChange={(event) => changeFilter('order', event.target.value === 'oldest' ? 'oldest' : '')}
              className="form-select form-select-sm"
            >
              <option value="value">{t('admin:inbox.orderValue')}</option>
              <option value="oldest">{t('admin:inbox.orderOldest')}</option>
            </select>
          </div>
        </fieldset>
        <section aria-labelledby="waiting-heading" className="mb-4">
          <h2 id="waiting-heading" className="h6">
            {t('admin:inbox.waitingHeading')}
          </h2>
          {queue.conversations.length === 0 ? (
            <p className="text-body-secondary">{t('admin:inbox.empty')}</p>
          ) : (
            <ul className="list-group" data-testid="inbox">
              {queue.conversations.map(row)}
            </ul>
          )}
          {queue.nextCursor && (
            <button
              type="button"
              className="btn btn-outline-secondary btn-sm mt-2"
              onClick={() => void loadMore()}
              disabled={loadingMore}
            >
              {t('admin:inbox.more')}
            </button>
          )}
        </section>
        <section aria-labelledby="claimed-heading">
          <h2 id="claimed-heading" className="h6">
            {t('admin:inbox.claimedHeading', { count: queue.claimed.length })}
          </h2>
          {queue.claimed.length === 0 ? (
            <p className="small text-body-secondary">{t('admin:inbox.noneClaimed')}</p>
          ) : (
            <ul className="list-group" data-testid="claimed">
              {queue.claimed.map(row)}
            </ul>
          )}
        </section>
      </div>
      <aside className="col-12 col-lg-3">
        {stats && (
          <div className="card">
            <div className="card-body">
              <h2 className="h6">{t('admin:stats.heading')}</h2>
              <dl className="row small mb-0">
                <dt className="col-8">{t('admin:stats.repliesToday')}</dt>
                <dd className="col-4 text-end" data-testid="replies-today">
                  {stats.replies_today}
                </dd>
                <dt className="col-8">{t('admin:stats.medianReply')}</dt>
                <dd className="col-4 text-end">{formatSeconds(stats.median_reply_seconds)}</dd>
                {stats.waiting.map((site) => (
                  <Fragment key={site.site}>
                    <dt className="col-8 fw-normal">{t('admin:stats.waitingOn', { site: site.name })}</dt>
                    <dd className="col-4 text-end">{site.count}</dd>
                  </Fragment>
                ))}
              </dl>
            </div>
          </div>
        )}
        <div className="card mt-3">
          <div className="card-body small">
            <h2 className="h6">{t('admin:shortcuts.heading')}</h2>
            <dl className="mb-0">
              <dt>
                <kbd>N</kbd> · <kbd>Alt</kbd>+<kbd>N</kbd>
              </dt>
              <dd>{t('admin:shortcuts.next')}</dd>
              <dt>
                <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>Enter</kbd>
              </dt>
              <dd>{t('admin:shortcuts.sendNext')}</dd>
              <dt>
                <kbd>Esc</kbd>
              </dt>
              <dd className="mb-0">{t('admin:shortcuts.release')}</dd>
            </dl>
          </div>
        </div>
      </aside>
    </div>
  );
}
