import { ConfigError, loadConfig } from './config.ts';
import { type EmbeddedStart, startEmbeddedDatabase } from './db/embedded.ts';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // The embedded database starts in a thread of its own before the app's modules load, so
  // PostgreSQL's start and the loading share the two cores (docs/decisions/025).
  const embedded: EmbeddedStart | undefined = config.DATABASE_URL ? undefined : startEmbeddedDatabase(config);
  const [
    { buildApp },
    { generateDemoMedia },
    { landersServiceOf },
    { loadServerBuild },
    { warmGeoip },
    { NoSiteConfiguredError },
  ] = await Promise.all([
    import('./app.ts'),
    import('./modules/demo/demo.media.ts'),
    import('./modules/landers/landers.service.ts'),
    import('./web/ssr.ts'),
    import('./lib/geoip.ts'),
    import('./modules/sites/sites.service.ts'),
  ]);
  const web = config.NODE_ENV === 'development' ? 'development' : 'production';
  // The pages load meanwhile too; a missing build is reported where they are registered.
  if (embedded && web === 'production')
    loadServerBuild().catch(() => {
      // expected: registerWeb awaits this same load, and a failed one fails the start there.
    });
  const app = await buildApp(config, { web, ...(embedded ? { embedded } : {}) });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const publicUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  console.log(`Back office (operator console): ${new URL('/admin', publicUrl).toString()}`);
  const demoAdmin = app.deps.staffStart.demoAdmin;
  if (demoAdmin) {
    // Shown this once; the file in the data folder keeps it (set ADMIN_EMAIL/ADMIN_PASSWORD in production).
    console.log(
      `Demo back-office admin created: ${demoAdmin.email} / ${demoAdmin.password} (written to ${demoAdmin.file})`,
    );
  }
  // Before the first site exists only the back office answers: said once here, not by every probe.
  await app.deps.sites.resolve(undefined).catch((error: unknown) => {
    if (!(error instanceof NoSiteConfiguredError)) throw error;
    console.log(
      `No site yet: sign in at ${new URL('/admin', publicUrl).toString()} as the admin and create the first company and site.`,
    );
  });
  // Loaded once the server answers rather than during its start (server/lib/geoip.ts).
  setImmediate(warmGeoip);
  // Mail, postbacks and the periodic sweeps: this instance's worker of the one job runner.
  app.deps.jobs.start();

  if (config.SEED_DEMO) {
    generateDemoMedia(app.deps.db, app.deps.storage)
      .then((count) => count > 0 && app.log.info({ profiles: count }, 'demo photos generated'))
      .catch((error: unknown) => app.deps.caught.reportCaught('demo.photos', error, 'error'))
      // The video landers' videos, made once from those photos (DATA_DIR/assets/landers).
      .then(() => landersServiceOf(app.deps).ensureMedia())
      .catch((error: unknown) => app.deps.caught.reportCaught('landers.videos', error, 'error'));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
