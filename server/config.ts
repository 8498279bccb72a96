import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

/** Fastify's trustProxy takes a boolean, a hop count or a list of addresses. */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): boolean | number | string[] => {
    if (value === 'true') return true;
    if (value === 'false' || value === '') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const addresses = value.split(',').map((part) => part.trim());
    if (addresses.some((address) => !/^[0-9a-fA-F:.]+(\/\d+)?$/.test(address))) {
      ctx.addIssue({
        code: 'custom',
        message: 'expected true, false, a hop count or comma-separated addresses',
      });
      return z.NEVER;
    }
    return addresses;
  });

const urlWithProtocols = (protocols: string[]) =>
  z.url().refine((value) => protocols.some((protocol) => value.startsWith(`${protocol}:`)), {
    message: `expected a ${protocols.join(' or ')} URL`,
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithProtocols(['postgres', 'postgresql']).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * What sits between the app and PostgreSQL: `transaction` for a transaction-mode pooler (PgBouncer,
   * RDS Proxy, Supavisor): statements are sent unnamed and nothing outlives a transaction (decision 048).
   */
  DATABASE_POOLER: z.enum(['none', 'session', 'transaction']).default('none'),
  /** A direct connection past the pooler, used for migrations only when set. */
  DATABASE_DIRECT_URL: urlWithProtocols(['postgres', 'postgresql']).optional(),
  /**
   * Read replicas (streaming standbys), comma-separated: search, profile reads, lists and public
   * pages read from them; a member's own writes are read back from the primary (decision 056).
   */
  DATABASE_REPLICA_URL: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .pipe(z.array(urlWithProtocols(['postgres', 'postgresql']))),
  /** A replica whose replay is further behind than this serves no reads until it catches up. */
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  /** How long a member's reads go to the primary after they wrote (read-your-writes). */
  DATABASE_REPLICA_STICKY_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  /** How often each replica's health and lag are checked. */
  DATABASE_REPLICA_CHECK_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  REDIS_URL: urlWithProtocols(['redis', 'rediss']).optional(),
  /** Prefix of every Redis key and channel; default derived from the database (server/lib/redis-prefix.ts). */
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9:_.-]{1,64}$/, 'letters, digits and : _ . - only')
    .optional(),
  SMTP_URL: urlWithProtocols(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
  /** DKIM: one selector and PEM private key (`\n` escapes allowed); each mail is signed for its From domain. */
  DKIM_SELECTOR: z
    .string()
    .regex(/^[a-zA-Z0-9._-]+$/)
    .optional(),
  DKIM_PRIVATE_KEY: z
    .string()
    .transform((value) => value.replace(/\\n/g, '\n'))
    .refine((value) => value.includes('PRIVATE KEY-----'), 'expected a PEM private key')
    .optional(),
  /** Text messages (direct-debit codes): the outbox folder, or a real gateway with its credentials. */
  SMS_PROVIDER: z.enum(['outbox', 'messagebird', 'twilio']).default('outbox'),
  /** The originator: a phone number in E.164 or an alphanumeric sender id of at most 11 characters. */
  SMS_SENDER: z
    .string()
    .regex(/^(\+\d{6,15}|[a-zA-Z0-9 ]{1,11})$/, 'expected +<digits> or up to 11 letters and digits')
    .default('Dating'),
  MESSAGEBIRD_ACCESS_KEY: z.string().min(1).optional(),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'expected a Twilio account SID (AC…)')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  /** Override of a provider's API base URL (tests and sandboxes); the provider's own by default. */
  SMS_API_URL: z.url().optional(),
  PUBLIC_URL: z.url().optional(),
  TRUST_PROXY: trustProxy.default(false),
  SEED_DEMO: booleanFlag.default(true),
  DEMO_PROFILES: z.coerce.number().int().min(0).max(100_000).default(320),
  /** Where a fresh embedded database's start snapshot is kept (docs/decisions/012); default node_modules/.cache. */
  PGLITE_SNAPSHOT_DIR: z.string().min(1).optional(),
  SESSION_SECRET: z.string().min(32).optional(),
  /**
   * The key of the address bans' HMAC (docs/decisions/046); generated and stored in the database when
   * unset. Changing it forgets every ban, so set it once.
   */
  BAN_HASH_SECRET: z.string().min(32).optional(),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** How long a process keeps a resolved session (ms; 0 = off). */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /** How long a process keeps a public page as visitors without a session see it (ms; 0 = off; the built pages only). */
  PAGE_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  /** How long a process keeps a member's finished conversation list (ms; 0 = off). */
  CHAT_LIST_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** How long a process keeps the part of a search's count that every member with the filter shares (ms; 0 = off). */
  SEARCH_COUNT_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(2).default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_PUBLIC_URL: z.url().optional(),
  PAYMENT_PROVIDER: z.enum(['test', 'mollie']).default('test'),
  MOLLIE_API_KEY: z
    .string()
    .regex(/^(test|live)_\w+$/, 'expected a Mollie API key (test_… or live_…)')
    .optional(),
  /** Addresses exempt from rate limits (comma-separated), e.g. a load test or the browser tests on loopback. */
  RATE_LIMIT_ALLOWLIST: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  /** Switches every rate limit off, for a load test (`npm run bench`) only; the start log warns. */
  RATE_LIMITS_OFF: booleanFlag.default(false),
  MAIL_WEBHOOK_SECRET: z.string().min(16).optional(),
  /** The first back-office admin, created once at start when no staff account has this address. */
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(10, 'at least 10 characters').optional(),
  /** Bearer token of GET /metrics (Prometheus); without it /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** Minutes after which a pending payment order is fetched from the provider again (the webhook may have been missed). */
  PAYMENT_RECHECK_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = Omit<z.output<typeof envSchema>, 'DATA_DIR'> & {
  DATA_DIR: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the environment once; a bad variable stops the start with its name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, DATA_DIR: path.resolve(parsed.data.DATA_DIR) };
}
