import { useState } from 'react';
import { ChatHeartFill, HeartFill } from 'react-bootstrap-icons';
import { data, Link, redirect, useParams } from 'react-router';
import { LikesNav } from '#app/components/likes-nav.tsx';
import { ProfileCard } from '#app/components/profile-card.tsx';
import { api, serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useLiveLikes } from '#app/state/live-likes.ts';
import { useMatchMoment } from '#app/state/match-moment.tsx';
import type { Profile } from '#contract/profiles.ts';
import type { Route } from './+types/likes';

export const handle = { membersArea: true };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.likes');
}

const types = ['received', 'given', 'matches'] as const;
type LikesType = (typeof types)[number];

export async function loader({ context, params }: Route.LoaderArgs) {
  if (params.type && !types.includes(params.type as LikesType)) throw data(null, { status: 404 });
  const answer = await serverApi(context.api)('GET /api/likes.php');
  if (!answer.ok) throw redirect('/login?redirect=%2Flikes');
  return answer.data;
}

function LikeBackButton({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const { showMatch } = useMatchMoment();
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  return (
    <button
      type="button"
      className="btn btn-primary btn-sm"
      disabled={state !== 'idle'}
      onClick={async () => {
        setState('busy');
        const result = await api('POST /api/like.php', { body: { profile: profile.id } });
        setState(result.ok ? 'done' : 'idle');
        if (result.ok && result.data.match) showMatch(profile);
      }}
      aria-label={t('discover:likes.likeBackName', { name: profile.name })}
    >
      <HeartFill aria-hidden="true" className="me-1" />
      {state === 'done' ? t('profile:member.liked') : t('discover:likes.likeBack')}
    </button>
  );
}

function ChatLink({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  return (
    <Link
      to={`/members/${profile.id}/chat`}
      className="btn btn-outline-primary btn-sm"
      aria-label={t('discover:likes.chatName', { name: profile.name })}
    >
      <ChatHeartFill aria-hidden="true" className="me-1" />
      {t('profile:member.chat')}
    </Link>
  );
}

/** The situation decides the empty text: no photo yet, an unfinished profile, or simply nothing yet. */
function EmptyLikes({ type }: { type: LikesType }) {
  const { t } = useTranslation();
  const { user } = useRootData();
  const noPhoto = user !== null && !user.profile.main_image;
  const incomplete = user !== null && !user.profile.complete;
  if (type === 'received' && (noPhoto || incomplete)) {
    return (
      <div className="empty-state" data-testid="likes-empty">
        <p className="mb-3">
          {t(noPhoto ? 'discover:likes.emptyNoPhoto' : 'discover:likes.emptyIncomplete')}
        </p>
        <Link to="/profile" className="btn btn-primary">
          {t(noPhoto ? 'discover:likes.addPhoto' : 'discover:likes.completeProfile')}
        </Link>
      </div>
    );
  }
  const action =
    type === 'matches'
      ? { to: '/swipe-game', label: t('discover:likes.toSwipe') }
      : type === 'given'
        ? { to: '/swipe-game', label: t('discover:likes.toSwipe') }
        : { to: '/members', label: t('discover:likes.toSearch') };
  return (
    <div className="empty-state" data-testid="likes-empty">
      <p className="mb-3">{t(`likes:empty.${type}`)}</p>
      <Link to={action.to} className="btn btn-primary">
        {action.label}
      </Link>
    </div>
  );
}

/** Likes (spec §2): new matches on top, who liked you (new first), whom you liked, matches. */
export default function Likes({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  useLiveLikes();
  const type = (useParams().type as LikesType | undefined) ?? 'received';
  const isNew = new Map(loaderData.liked_by.map((entry) => [entry.id, entry.like_new]));
  const givenIds = new Set(loaderData.profiles.map((profile) => profile.id));
  const matchIds = new Set(loaderData.matches.map((profile) => profile.id));
  const lists: Record<LikesType, Profile[]> = {
    received: loaderData.received,
    given: loaderData.profiles,
    matches: loaderData.matches,
  };
  const shown = lists[type];
  return (
    <div className="container py-3">
      <h1 className="h3 mb-3">{t('page.likes')}</h1>
      {loaderData.matches.length > 0 && (
        <section aria-labelledby="new-matches">
          <h2 id="new-matches" className="h6 text-body-secondary">
            {t('discover:likes.newMatches')}
          </h2>
          <ul className="matches-row" data-testid="matches-row">
            {loaderData.matches.map((profile) => (
              <li key={profile.id}>
                <Link
                  to={`/members/${profile.id}/chat`}
                  aria-label={t('discover:likes.chatName', { name: profile.name })}
                >
                  {profile.main_image ? (
                    <img src={profile.main_image.thumb_filename} alt="" width={64} height={64} />
                  ) : (
                    <span className="match-photo-empty" />
                  )}
                  <span>{profile.name}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <LikesNav active={type} counts={{ received: lists.received.length, matches: lists.matches.length }} />
      {shown.length === 0 ? (
        <EmptyLikes type={type} />
      ) : (
        <ul className="profile-grid list-unstyled" data-testid={`likes-${type}`}>
          {shown.map((profile) => (
            <li key={profile.id}>
              <ProfileCard
                profile={profile}
                to={type === 'received' ? `/likes/m/${profile.id}` : `/members/${profile.id}`}
                badge={
                  type === 'received' && isNew.get(profile.id) ? (
                    <span className="badge text-bg-primary">{t('likes:new')}</span>
                  ) : undefined
                }
                actions={
                  type === 'given' ? undefined : (
                    <>
                      {type === 'received' && !givenIds.has(profile.id) && !matchIds.has(profile.id) && (
                        <LikeBackButton profile={profile} />
                      )}
                      <ChatLink profile={profile} />
                    </>
                  )
                }
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
