import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { generateDemoMedia } from './modules/demo/demo.media.ts';

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
  const web = config.NODE_ENV === 'development' ? 'development' : 'production';
  const app = await buildApp(config, { web });

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
  app.deps.mail.start();
  const eraseExpired = () =>
    app.deps.accounts
      .eraseExpiredDeletions()
      .then((count) => count > 0 && app.log.info({ count }, 'erased accounts after the 14 days'))
      .catch((error: unknown) => app.log.error({ err: error }, 'erasing accounts failed'));
  void eraseExpired();
  setInterval(eraseExpired, 3_600_000).unref();

  if (config.SEED_DEMO) {
    generateDemoMedia(app.deps.db, app.deps.storage)
      .then((count) => count > 0 && app.log.info({ profiles: count }, 'demo photos generated'))
      .catch((error: unknown) => app.log.error({ err: error }, 'demo photos failed'));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
