import { useState } from 'react';
import { EyeFill, LockFill } from 'react-bootstrap-icons';
import { Link, redirect } from 'react-router';
import { LikesNav } from '#app/components/likes-nav.tsx';
import { ProfileCard } from '#app/components/profile-card.tsx';
import { api, serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Visitor } from '#contract/likes.ts';
import type { Route } from './+types/visitors';

export const handle = { membersArea: true };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.visitors');
}

export async function loader({ context }: Route.LoaderArgs) {
  const answer = await serverApi(context.api)('GET /api/visitors.php', { query: {} });
  if (!answer.ok) throw redirect('/login?redirect=%2Flikes%2Fvisitors');
  return answer.data;
}

/** A visit a free member sees: the blurred photo, age and region; who it is stays for Premium. */
function VeiledVisitor({ visitor }: { visitor: Visitor }) {
  const { t } = useTranslation();
  const { profile } = visitor;
  return (
    <article className="profile-card visitor-veiled" data-testid="visitor-veiled">
      <div className="profile-card-photo">
        {profile.main_image ? (
          <img src={profile.main_image.thumb_filename} alt="" width={240} height={300} decoding="async" />
        ) : (
          <div className="profile-card-empty" aria-hidden="true" />
        )}
        {visitor.new && (
          <div className="profile-card-badge">
            <span className="badge text-bg-primary">{t('likes:new')}</span>
          </div>
        )}
        <div className="profile-card-caption">
          <h2 className="profile-card-name h6">
            <Link to="/premium" className="stretched-link text-white">
              <LockFill aria-hidden="true" className="me-1" size={12} />
              {t('likes:visitors.veiled', { age: profile.age })}
            </Link>
          </h2>
          {profile.region_label && <p className="profile-card-line mb-0">{profile.region_label}</p>}
        </div>
      </div>
    </article>
  );
}

/** Who viewed me: newest first; a free member sees how many, veiled, and the way to Premium. */
export default function Visitors({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [pages, setPages] = useState<{ visitors: Visitor[]; next: string | null }>({
    visitors: loaderData.visitors,
    next: loaderData.next_cursor,
  });
  const [loading, setLoading] = useState(false);
  const more = async () => {
    if (!pages.next) return;
    setLoading(true);
    const answer = await api('GET /api/visitors.php', { query: { cursor: pages.next } });
    setLoading(false);
    if (!answer.ok) {
      reportCaught('visitors.more', new Error(`visitors page: ${answer.status}`));
      return;
    }
    setPages((current) => ({
      visitors: [...current.visitors, ...answer.data.visitors],
      next: answer.data.next_cursor,
    }));
  };
  return (
    <div className="container py-3">
      <h1 className="h3 mb-3">{t('page.likes')}</h1>
      <LikesNav active="visitors" counts={{ visitors: loaderData.new_count }} />
      {loaderData.blurred && loaderData.total > 0 && (
        <div
          className="alert alert-primary d-flex flex-wrap align-items-center gap-2"
          data-testid="visitors-upsell"
        >
          <EyeFill aria-hidden="true" />
          <span className="flex-grow-1">{t('likes:visitors.blurred', { count: loaderData.total })}</span>
          <Link to="/premium" className="btn btn-primary btn-sm">
            {t('likes:visitors.unlock')}
          </Link>
        </div>
      )}
      {pages.visitors.length === 0 ? (
        <div className="empty-state" data-testid="likes-empty">
          <p className="mb-3">{t('likes:empty.visitors')}</p>
          <Link to="/profile" className="btn btn-primary">
            {t('discover:likes.completeProfile')}
          </Link>
        </div>
      ) : (
        <ul className="profile-grid list-unstyled" data-testid="likes-visitors">
          {pages.visitors.map((visitor, index) => (
            <li key={visitor.visited_at}>
              {loaderData.blurred ? (
                <VeiledVisitor visitor={visitor} />
              ) : (
                <ProfileCard
                  profile={visitor.profile}
                  headingLevel={2}
                  index={index}
                  badge={
                    visitor.new ? <span className="badge text-bg-primary">{t('likes:new')}</span> : undefined
                  }
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {pages.next && (
        <div className="text-center mt-3">
          <button type="button" className="btn btn-outline-primary" onClick={more} disabled={loading}>
            {t('likes:visitors.more')}
          </button>
        </div>
      )}
    </div>
  );
}
