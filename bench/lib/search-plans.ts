import pg from 'pg';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { observeStatements } from '../../server/db/client.ts';

/**
 * The plans of the statements a search runs: the app (in this process, API only) answers each
 * search once while every statement is captured with its parameters; each select is then run
 * again under EXPLAIN (ANALYZE, BUFFERS). Returns the text for bench/results/search-plans.txt.
 */
export async function explainSearches(options: {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  dataDir: string;
  cookie: string;
  profiles: number;
  searches: readonly { name: string; query: string }[];
}): Promise<string> {
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      REDIS_PREFIX: options.redisPrefix,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'silent',
      SEED_DEMO: '0',
      RATE_LIMITS_OFF: '1',
    }),
    { web: false },
  );
  await app.ready();
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const out: string[] = [
    `Search plans over ${options.profiles.toLocaleString('en')} profiles (${new Date().toISOString()})`,
  ];
  try {
    for (const search of options.searches) {
      const statements: { query: string; params: unknown[] }[] = [];
      observeStatements((query, params) => statements.push({ query, params }));
      const response = await app.inject({
        method: 'GET',
        url: `/api/search.php${search.query}`,
        headers: { cookie: options.cookie },
      });
      observeStatements(null);
      out.push('', `=== ${search.name}: GET /api/search.php${search.query} → ${response.statusCode}`);
      for (const statement of statements) {
        if (!/^\s*(with|select)\b/i.test(statement.query)) continue;
        out.push('', statement.query, `-- params: ${JSON.stringify(statement.params)}`);
        const plan = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) ${statement.query}`,
          statement.params,
        );
        out.push(...plan.rows.map((row) => row['QUERY PLAN']));
      }
    }
  } finally {
    observeStatements(null);
    await client.end();
    await app.close();
  }
  return `${out.join('\n')}\n`;
}
