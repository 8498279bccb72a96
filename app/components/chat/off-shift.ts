import type { TFunction } from 'i18next';

/** "Usually replies within 3 hours": minutes under an hour, hours up to two days, then days. */
export function usualReplyText(minutes: number, t: TFunction): string {
  if (minutes < 60) return t('chat:usuallyReplies.minutes', { count: minutes });
  if (minutes < 48 * 60) return t('chat:usuallyReplies.hours', { count: Math.ceil(minutes / 60) });
  return t('chat:usuallyReplies.days', { count: Math.ceil(minutes / (24 * 60)) });
}
