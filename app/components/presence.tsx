import type { TFunction } from 'i18next';
import { useTranslation } from '#app/lib/use-translation.ts';

/** Active within this long counts as online (the API's last_active is refreshed on every visit). */
export const onlineWindowMs = 5 * 60 * 1000;

export type PresenceState = { online: boolean; ago: string | null };

/**
 * Online, or how long ago someone was active ("2 hours ago", "yesterday"), in the member's language.
 * From the catalogs' plural messages, not `Intl.RelativeTimeFormat`: a browser builds its first one
 * in one 20–40 ms step (×4 on Lighthouse's phone), in the middle of hydrating the first card.
 */
export function presenceOf(lastActive: string, t: TFunction, now = Date.now()): PresenceState {
  const elapsed = now - new Date(lastActive).getTime();
  if (!Number.isFinite(elapsed)) return { online: false, ago: null };
  if (elapsed < onlineWindowMs) return { online: true, ago: null };
  const minutes = Math.floor(elapsed / 60_000);
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
 * chat header. Long absences show nothing. `compact` leaves out the word "Online" next to the dot.
 */
export function Presence({
  lastActive,
  region,
  compact = false,
  className = '',
}: {
  lastActive: string;
  region?: string | null | undefined;
  compact?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const state = presenceOf(lastActive, t);
  const status = state.online
    ? t('discover:presence.online')
    : state.ago
      ? t('discover:presence.active', { ago: state.ago })
      : null;
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
