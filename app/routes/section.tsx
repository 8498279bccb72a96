import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { pageMeta } from '../lib/meta.ts';
import type { Route } from './+types/section';

/** The page heading of each route name (spec §2); the screens' own content fills in below it. */
export const sectionTitles: Record<string, string> = {
  login: 'page.login',
  signup: 'page.signup',
  'reset-password': 'page.resetPassword',
  'reset-password-do': 'page.resetPasswordDo',
  'activate-done': 'page.activateDone',
  'activate-error': 'page.activateError',
  'mail-change-do': 'page.mailChangeDo',
  'account-deleted': 'page.accountDeleted',
  'complete-signup': 'page.completeSignup',
  pricing: 'page.pricing',
  complaints: 'page.complaints',
  members: 'page.members',
  'members-id': 'page.member',
  'likes-m-id': 'page.member',
  likes: 'page.likes',
  'likes-type': 'page.likes',
  chats: 'page.chats',
  'chats-id': 'page.chats',
  premium: 'page.premium',
  profile: 'page.profile',
  notifications: 'page.notifications',
  credits: 'page.credits',
  'credits-repeat-order': 'page.credits',
  'credits-id-paymentmethod': 'page.credits',
  directdebit: 'page.directDebit',
  transactions: 'page.transactions',
  'swipe-game': 'page.swipeGame',
  'landers-tinderswipe': 'home.signup',
};

const publicSections = new Set(['login', 'signup', 'pricing', 'complaints', 'reset-password']);

export function meta({ matches }: Route.MetaArgs) {
  const id = matches.at(-1)?.id ?? '';
  return pageMeta(matches, sectionTitles[id] ?? 'page.members', { public: publicSections.has(id) });
}

export default function Section() {
  const { t } = useTranslation();
  const id = useMatches().at(-1)?.id ?? '';
  return (
    <div className="container py-4">
      <h1 className="h3">{t(sectionTitles[id] ?? 'page.members')}</h1>
    </div>
  );
}
