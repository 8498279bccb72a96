import { Fragment, useEffect, useRef, useState } from 'react';
import { Form, Link, useRevalidator } from 'react-router';
import { useStaff } from '#app/layouts/admin-layout.tsx';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { InboxItem, OperatorStats } from '#contract/admin.ts';
import { locales } from '#contract/locales.ts';
import type { Route } from './+types/inbox';
import { formatSeconds, languageName, useAdminEvents } from './admin-socket.ts';

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const name of ['site', 'language']) {
    const value = url.searchParams.get(name);
    if (value) query.set(name, value);
  }
  const [inbox, stats] = await Promise.all([
    context.api<{ conversations: InboxItem[] }>(`/api/admin/inbox.php?${query}`),
    context.api<OperatorStats>('/api/admin/operator-stats.php'),
  ]);
  return {
    conversations: inbox.ok ? inbox.data.conversations : [],
    stats: stats.ok ? stats.data : null,
    filters: { site: query.get('site') ?? '', language: query.get('language') ?? '' },
  };
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

/** The operators' queue, oldest first, updated live: new waiting conversations, claims, answers. */
export default function Inbox({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const staff = useStaff();
  const revalidator = useRevalidator();
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const status = useAdminEvents((event) => {
    if (event.type === 'message') return;
    // Several events often arrive together (a reply ends a claim and leaves the queue): reload once.
    clearTimeout(pending.current);
    pending.current = setTimeout(() => void revalidator.revalidate(), 150);
  });
  const now = useNow();
  const { conversations, stats, filters } = loaderData;
  const locale = i18n.language;
  const sites = stats?.waiting ?? [];

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
        <Form method="get" className="row g-2 mb-3" aria-label={t('admin:inbox.filters')}>
          <div className="col-6 col-md-4">
            <label className="form-label small mb-0" htmlFor="filter-site">
              {t('admin:inbox.site')}
            </label>
            <select
              id="filter-site"
              name="site"
              defaultValue={filters.site}
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
          <div className="col-6 col-md-4">
            <label className="form-label small mb-0" htmlFor="filter-language">
              {t('admin:inbox.language')}
            </label>
            <select
              id="filter-language"
              name="language"
              defaultValue={filters.language}
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
          <div className="col-12 col-md-4 d-flex align-items-end">
            <button type="submit" className="btn btn-outline-secondary btn-sm">
              {t('admin:inbox.apply')}
            </button>
          </div>
        </Form>
        {conversations.length === 0 ? (
          <p className="text-body-secondary">{t('admin:inbox.empty')}</p>
        ) : (
          <ul className="list-group" data-testid="inbox">
            {conversations.map((item) => {
              const waited = Math.max(0, Math.round((now - Date.parse(item.waiting_since)) / 1000));
              const mine = item.claimed_by?.id === staff?.id;
              return (
                <li key={item.id} className="list-group-item" data-conversation={item.id}>
                  <Link
                    to={`/admin/conversations/${item.id}`}
                    className="stretched-link text-decoration-none text-body"
                  >
                    <div className="d-flex flex-wrap gap-2 align-items-baseline">
                      <strong>
                        {item.member.name}, {item.member.age}
                      </strong>
                      <span className="small text-body-secondary">
                        {item.member.country} · {languageName(item.member_language, locale)}
                      </span>
                      <span className="small">→ {item.profile.name}</span>
                      <span className="badge text-bg-light border">{item.site.name}</span>
                      <span className="ms-auto small text-nowrap">
                        {t('admin:inbox.waiting', { time: formatSeconds(waited) })}
                      </span>
                    </div>
                  </Link>
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
            })}
          </ul>
        )}
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
      </aside>
    </div>
  );
}
