import { index, layout, type RouteConfig, route } from '@react-router/dev/routes';

// Route ids are the route names of spec §2, so this table reads like the spec.
const infoPage = 'routes/info-page.tsx';

export default [
  layout('layouts/default-layout.tsx', [
    index('routes/home.tsx', { id: 'index' }),
    route('login', 'routes/login.tsx', { id: 'login' }),
    route('signup', 'routes/signup.tsx', { id: 'signup' }),
    route('reset-password', 'routes/reset-password.tsx', { id: 'reset-password' }),
    route('reset-password/do', 'routes/reset-password-do.tsx', { id: 'reset-password-do' }),
    route('activate/done', 'routes/activation.tsx', { id: 'activate-done' }),
    route('activate/error', 'routes/activation.tsx', { id: 'activate-error' }),
    route('mail-change/do', 'routes/mail-change-do.tsx', { id: 'mail-change-do' }),
    route('account-deleted', 'routes/account-deleted.tsx', { id: 'account-deleted' }),
    route('complete-signup', 'routes/complete-signup.tsx', { id: 'complete-signup' }),
    route('pricing', 'routes/pricing.tsx', { id: 'pricing' }),
    route('complaints', 'routes/complaints.tsx', { id: 'complaints' }),
    route('signup-matches', 'routes/signup-matches.tsx', { id: 'signup-matches' }),
    route('match-finder', 'routes/signup-matches.tsx', { id: 'match-finder' }),
    route('lang-config', 'routes/lang-config.tsx', { id: 'lang-config' }),
    route('unsubscribe', 'routes/unsubscribe.tsx', { id: 'unsubscribe' }),
    route(':token', 'routes/info-page.tsx', { id: 'info-token' }),
    route('pages/terms', infoPage, { id: 'pages-terms' }),
    route('pages/privacy', infoPage, { id: 'pages-privacy' }),
    route('pages/cookies', infoPage, { id: 'pages-cookies' }),
    route('pages/ban', infoPage, { id: 'pages-ban' }),
    route('pages/return-policy', infoPage, { id: 'pages-return-policy' }),
    route('pages/faq', infoPage, { id: 'pages-faq' }),
    route('pages/service', infoPage, { id: 'pages-service' }),
    route('pages/compliance', infoPage, { id: 'pages-compliance' }),
    route('members', 'routes/members.tsx', { id: 'members' }),
    route('members/:id', 'routes/member.tsx', { id: 'members-id' }),
    layout('layouts/require-member.tsx', { id: 'require-member' }, [
      route('likes', 'routes/likes.tsx', { id: 'likes' }),
      route('likes/m/:id', 'routes/member.tsx', { id: 'likes-m-id' }),
      route('likes/:type', 'routes/likes.tsx', { id: 'likes-type' }),
      route('chats', 'routes/chats.tsx', { id: 'chats' }),
      route('premium', 'routes/premium.tsx', { id: 'premium' }),
      route('members/:id/chat', 'routes/member-chat.tsx', { id: 'members-id-chat' }),
      route('profile', 'routes/profile.tsx', { id: 'profile' }),
      route('notifications', 'routes/notifications.tsx', { id: 'notifications' }),
      route('credits', 'routes/credits.tsx', { id: 'credits' }),
      route('credits/repeat-order', 'routes/credits-repeat-order.tsx', { id: 'credits-repeat-order' }),
      route('credits/:id/:paymentmethod?', 'routes/credits-checkout.tsx', { id: 'credits-id-paymentmethod' }),
      route('directdebit', 'routes/directdebit.tsx', { id: 'directdebit' }),
      route('transactions/:id?', 'routes/transactions.tsx', { id: 'transactions' }),
      route('swipe-game', 'routes/swipe-game.tsx', { id: 'swipe-game' }),
    ]),
  ]),
  layout('layouts/chat-layout.tsx', [
    layout('layouts/require-member.tsx', { id: 'require-member-chat' }, [
      route('chats/:id', 'routes/chat.tsx', { id: 'chats-id' }),
    ]),
  ]),
  layout('layouts/empty-layout.tsx', [
    route('payments/test/:payment', 'routes/payments-test.tsx', { id: 'payments-test' }),
  ]),
  layout('layouts/lander-layout.tsx', [
    route('landers/tinderswipe/:slug?', 'routes/lander.tsx', { id: 'landers-tinderswipe' }),
    route('landers/:name/:slug?', 'routes/lander.tsx', { id: 'landers-name-slug' }),
    route('members/:id/landing', 'routes/member-landing.tsx', { id: 'members-id-landing' }),
    route('members/:id/landing2/:slug?', 'routes/member-landing.tsx', { id: 'members-id-landing2' }),
    route('members/:id/landing3/:slug?', 'routes/member-landing.tsx', { id: 'members-id-landing3' }),
    route('members/:id/signup', 'routes/member-landing.tsx', { id: 'members-id-signup' }),
  ]),
  route('*', 'routes/not-found.tsx', { id: 'not-found' }),
] satisfies RouteConfig;
