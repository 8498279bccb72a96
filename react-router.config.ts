import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
  // React Router v8's behaviour, adopted early (each silences its warning at build time).
  // Not yet: v8_middleware (the load context becomes a RouterContextProvider read with
  // `context.get()`, some 120 reads in 70 loaders) and v8_passThroughRequests (`request.url` keeps
  // `.data`, which the loaders that read their path from it would have to take from `url`).
  future: {
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
