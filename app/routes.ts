import { index, type RouteConfig, route } from '@react-router/dev/routes';

// Route ids are the route names of spec §2.
export default [
  index('routes/home.tsx', { id: 'index' }),
  route('*', 'routes/not-found.tsx', { id: 'not-found' }),
] satisfies RouteConfig;
