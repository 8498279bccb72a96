import { createHash } from 'node:crypto';
import type { Config } from '#server/config.ts';

/**
 * The prefix of every Redis key and pub/sub channel of this deployment. Pub/sub ignores the Redis
 * db number, so two deployments on one Redis must differ here: REDIS_PREFIX when set, else one
 * derived from the database (PostgreSQL host, port and name, or the embedded database's folder).
 */
export function redisPrefixOf(config: Pick<Config, 'REDIS_PREFIX' | 'DATABASE_URL' | 'DATA_DIR'>): string {
  if (config.REDIS_PREFIX) return config.REDIS_PREFIX;
  let source: string;
  let name: string;
  if (config.DATABASE_URL) {
    const url = new URL(config.DATABASE_URL);
    name = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
    source = `${url.hostname}:${url.port || '5432'}/${name}`;
  } else {
    name = 'embedded';
    source = config.DATA_DIR;
  }
  const readable = name.replace(/[^a-zA-Z0-9_-]/g, '').slice(0, 32);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 8);
  return `dating:${readable}:${hash}:`;
}
