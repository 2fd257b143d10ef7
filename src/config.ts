import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { dataDir as defaultDataDir, OPERATOR_TOKEN_FILE } from './paths.ts';

export { OPERATOR_TOKEN_FILE };

/** The environment codes of the specification; an API key's `{env}` must equal the service's. */
export const SERVICE_ENVS = ['prd', 'tst', 'dev'] as const;
export type ServiceEnv = (typeof SERVICE_ENVS)[number];

/** Operations with a per-merchant, per-minute budget (spec "Limits", CONTRACT §1 `RATE_LIMITS`). */
export const RATE_LIMITED_OPERATIONS = [
  'payment_init',
  'payment_status',
  'payout_create',
  'payout_status',
  'balance',
  'credentials',
] as const;
export type RateLimitedOperation = (typeof RATE_LIMITED_OPERATIONS)[number];

export const DEFAULT_RATE_LIMITS: Record<RateLimitedOperation, number> = {
  payment_init: 100,
  payment_status: 300,
  payout_create: 50,
  payout_status: 300,
  balance: 60,
  credentials: 10,
};

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** Redis for the rate-limit counters, shared by every instance; unset: see services/rate-limits.ts. */
  redisUrl: string | undefined;
  dataDir: string;
  serviceEnv: ServiceEnv;
  publicBaseUrl: string;
  operatorToken: string;
  serviceSecret: string;
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
  webhookSecretRotationWindowMs: number;
  qrUrlTtlMs: number;
  sandboxConfirmDelayMs: number;
  /** `null` means rate limiting is off. */
  rateLimits: Record<RateLimitedOperation, number> | null;
  /** Proxies whose `X-Forwarded-*` headers are believed (Fastify `trustProxy`). */
  trustProxy: boolean | string;
  logLevel: string;
  /** Runs the webhook dispatcher inside the service (default on). */
  runDispatcher: boolean;
  /** Limits a GraphQL document must pass before it runs (docs/graphql.md). */
  graphql: GraphQLLimits;
}

export interface GraphQLLimits {
  /** Deepest selection nesting (CONTRACT §8: 10). */
  maxDepth: number;
  /** Estimated cost (graphql-armor: objects 2, scalars 1, ×1.5 per level, × literal `first`/`last`). */
  maxCost: number;
  maxAliases: number;
  /** Lexical tokens in the document. */
  maxTokens: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const intFrom = (name: string, min = 0) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n) && n >= min, `${name} must be at least ${min}`);

function parseRateLimits(raw: string | undefined): Config['rateLimits'] {
  if (raw === undefined || raw.trim() === '') return { ...DEFAULT_RATE_LIMITS };
  if (raw.trim() === 'off') return null;
  const limits = { ...DEFAULT_RATE_LIMITS };
  for (const part of raw.split(',')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if (!name || !(RATE_LIMITED_OPERATIONS as readonly string[]).includes(name)) {
      throw new ConfigError(
        `RATE_LIMITS: unknown operation "${name ?? ''}" (known: ${RATE_LIMITED_OPERATIONS.join(', ')})`,
      );
    }
    if (!value || !/^\d+$/.test(value) || Number(value) < 1) {
      throw new ConfigError(`RATE_LIMITS: ${name} needs a positive whole number`);
    }
    limits[name as RateLimitedOperation] = Number(value);
  }
  return limits;
}

/**
 * Reads a secret generated for `tst`/`dev` under DATA_DIR, creating it on first use, so that a
 * fresh `npm start` needs no set-up and the CLI can find the operator token.
 */
function localSecret(dataDir: string, file: string): string {
  const path = join(dataDir, file);
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (existing) return existing;
  } catch {
    // not generated yet
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(path, secret + '\n', { mode: 0o600 });
  return secret;
}

const SERVICE_SECRET_FILE = 'service-secret';

/** Every setting of CONTRACT §1, read once from `env`, validated and typed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const read = <T>(name: string, schema: z.ZodType<T>, fallback: string): T | undefined => {
    const raw = env[name] === undefined || env[name] === '' ? fallback : env[name];
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      problems.push(`${name}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return undefined;
    }
    return parsed.data;
  };

  const serviceEnv = read('SERVICE_ENV', z.enum(SERVICE_ENVS, { error: 'SERVICE_ENV must be prd, tst or dev' }), 'tst');
  const port = read('PORT', intFrom('PORT').refine((n) => n <= 65535, 'PORT must be at most 65535'), '8080');
  const host = env.HOST || '127.0.0.1';
  const dataDir = defaultDataDir(env);
  const databaseUrl = env.DATABASE_URL || undefined;
  const delays = read(
    'WEBHOOK_RETRY_DELAYS_MS',
    z
      .string()
      .regex(/^\d+(,\d+){3}$/, 'WEBHOOK_RETRY_DELAYS_MS must be 4 comma-separated whole numbers')
      .transform((s) => s.split(',').map(Number)),
    '5000,300000,1800000,7200000',
  );
  const webhookTimeoutMs = read('WEBHOOK_TIMEOUT_MS', intFrom('WEBHOOK_TIMEOUT_MS', 1), '10000');
  const rotation = read('WEBHOOK_SECRET_ROTATION_WINDOW_MS', intFrom('WEBHOOK_SECRET_ROTATION_WINDOW_MS', 1), '86400000');
  const qrTtl = read('QR_URL_TTL_MS', intFrom('QR_URL_TTL_MS', 1000), '86400000');
  const confirmDelay = read('SANDBOX_CONFIRM_DELAY_MS', intFrom('SANDBOX_CONFIRM_DELAY_MS'), '1000');
  const graphqlLimits = {
    maxDepth: read('GRAPHQL_MAX_DEPTH', intFrom('GRAPHQL_MAX_DEPTH', 1), '10'),
    maxCost: read('GRAPHQL_MAX_COST', intFrom('GRAPHQL_MAX_COST', 1), '20000'),
    maxAliases: read('GRAPHQL_MAX_ALIASES', intFrom('GRAPHQL_MAX_ALIASES', 0), '15'),
    maxTokens: read('GRAPHQL_MAX_TOKENS', intFrom('GRAPHQL_MAX_TOKENS', 1), '1000'),
  };
  let rateLimits: Config['rateLimits'] = null;
  try {
    rateLimits = parseRateLimits(env.RATE_LIMITS);
  } catch (e) {
    problems.push((e as Error).message);
  }

  if (serviceEnv === 'prd') {
    const missing = ['OPERATOR_TOKEN', 'SERVICE_SECRET', 'DATABASE_URL'].filter((name) => !env[name]);
    if (missing.length > 0) problems.push(`SERVICE_ENV=prd requires ${missing.join(', ')}`);
    if (env.SERVICE_SECRET && env.SERVICE_SECRET.length < 32) {
      problems.push('SERVICE_SECRET must be at least 32 characters');
    }
  }
  if (problems.length > 0) throw new ConfigError(`invalid settings: ${problems.join('; ')}`);

  const publicBaseUrl = (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const trust = env.TRUST_PROXY;
  return {
    port: port!,
    host,
    databaseUrl,
    redisUrl: env.REDIS_URL || undefined,
    dataDir,
    serviceEnv: serviceEnv!,
    publicBaseUrl,
    operatorToken: env.OPERATOR_TOKEN || localSecret(dataDir, OPERATOR_TOKEN_FILE),
    serviceSecret: env.SERVICE_SECRET || localSecret(dataDir, SERVICE_SECRET_FILE),
    webhookRetryDelaysMs: delays!,
    webhookTimeoutMs: webhookTimeoutMs!,
    webhookSecretRotationWindowMs: rotation!,
    qrUrlTtlMs: qrTtl!,
    sandboxConfirmDelayMs: confirmDelay!,
    rateLimits,
    trustProxy: trust === undefined || trust === '' || trust === 'false' ? false : trust === 'true' ? true : trust,
    logLevel: env.LOG_LEVEL || 'info',
    runDispatcher: env.RUN_DISPATCHER !== 'false',
    graphql: graphqlLimits as GraphQLLimits,
  };
}
