import { useRouteLoaderData } from 'react-router';
import type { loader } from '../root.tsx';

export type RootData = Awaited<ReturnType<typeof loader>>;

/** The data every screen shares: site settings, company, the member (or null), language. */
export function useRootData(): RootData {
  const data = useRouteLoaderData<typeof loader>('root');
  if (!data) throw new Error('useRootData outside the root route');
  return data;
}

export function useOptionalRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>('root');
}
