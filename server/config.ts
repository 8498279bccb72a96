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
  REDIS_URL: urlWithProtocols(['redis', 'rediss']).optional(),
  SMTP_URL: urlWithProtocols(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
  PUBLIC_URL: z.url().optional(),
  TRUST_PROXY: trustProxy.default(false),
  SEED_DEMO: booleanFlag.default(true),
  DEMO_PROFILES: z.coerce.number().int().min(0).max(100_000).default(320),
  SESSION_SECRET: z.string().min(32).optional(),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
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
  MAIL_WEBHOOK_SECRET: z.string().min(16).optional(),
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
