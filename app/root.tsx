import { useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from 'react-router';
import { defaultLocale } from '#contract/locales.ts';
import type { Settings } from '#contract/sites.ts';
import type { Route } from './+types/root';
import { ErrorScreen } from './components/error-screen.tsx';
import { createI18n } from './lib/i18n.ts';
import './styles/app.scss';

export async function loader({ context }: Route.LoaderArgs) {
  const settings = await context.api<Settings>('/api/settings.php');
  return { locale: context.locale, resources: context.resources, settings: settings.data };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return [
    { title: data.settings.index_title || data.settings.name },
    { name: 'description', content: data.settings.description },
  ];
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const locale = data?.locale ?? defaultLocale;
  const i18n = useMemo(() => createI18n(locale, data?.resources ?? {}), [locale, data?.resources]);
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error)) {
    return <ErrorScreen status={error.status} />;
  }
  return <ErrorScreen status={500} />;
}
