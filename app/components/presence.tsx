import type { TFunction } from 'i18next';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Profile } from '#contract/profiles.ts';

export type PresenceState = { online: boolean; ago: string | null };

/**
 * Online, or how long ago someone was active ("2 hours ago", "yesterday"), in the member's language.
 * Whether someone is online is the server's word (`online`): a fictional profile is online only
 * while its team is on shift and answering, however recent its last activity. A fictional profile
 * that is not online shows no "active … ago": automated messages leave its last activity where it
 * was, and "Active 11 days ago" beside a message of a minute ago reads as wrong (decision 058). From the catalogs'
 * plural messages, not `Intl.RelativeTimeFormat`: a browser builds its first one in one 20–40 ms
 * step (×4 on Lighthouse's phone), in the middle of hydrating the first card.
 */
export function presenceOf(
  of: Pick<Profile, 'last_active' | 'online' | 'fictional'>,
  t: TFunction,
  now = Date.now(),
): PresenceState {
  const elapsed = now - new Date(of.last_active).getTime();
  if (!Number.isFinite(elapsed)) return { online: false, ago: null };
  if (of.online) return { online: true, ago: null };
  if (of.fictional) return { online: false, ago: null };
  const minutes = Math.max(1, Math.floor(elapsed / 60_000));
  if (minutes < 60) return { online: false, ago: t('discover:presence.minutesAgo', { count: minutes }) };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { online: false, ago: t('discover:presence.hoursAgo', { count: hours }) };
  const days = Math.floor(hours / 24);
  if (days === 1) return { online: false, ago: t('discover:presence.yesterday') };
  if (days < 14) return { online: false, ago: t('discover:presence.daysAgo', { count: days }) };
  return { online: false, ago: null };
}

/**
 * A green dot and "Online", or "Active 2 hours ago", and the region: for cards, the profile and the
 * chat header. Long absences, and fictional profiles not online, show nothing. `compact` leaves out the word "Online" next to the dot.
 */
export function Presence({
  of,
  region,
  compact = false,
  className = '',
}: {
  of: Pick<Profile, 'last_active' | 'online' | 'fictional'>;
  region?: string | null | undefined;
  compact?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const state = presenceOf(of, t);
  const status = state.online
    ? t('discover:presence.online')
    : state.ago
      ? t('discover:presence.active', { ago: state.ago })
      : null;
  // Nothing to say (a fictional profile not online, without a region): no empty line. Decided
  // without the clock, so the server's and the browser's render agree.
  if (of.fictional && !of.online && !region) return null;
  return (
    <span className={`presence ${className}`} data-testid="presence" suppressHydrationWarning>
      {state.online && <span className="presence-dot" aria-hidden="true" />}
      {status && (!compact || !state.online) && <span suppressHydrationWarning>{status}</span>}
      {status && compact && state.online && <span className="visually-hidden">{status}</span>}
      {region && status && <span aria-hidden="true"> · </span>}
      {region && <span>{region}</span>}
    </span>
  );
}
