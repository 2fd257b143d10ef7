import { cutoffMinutes } from './domain/za-business-days.ts';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { bankForBranchCode } from './domain/za-banks.ts';
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
  'refund',
] as const;
export type RateLimitedOperation = (typeof RATE_LIMITED_OPERATIONS)[number];

/**
 * The per-address budget of requests without valid credentials and of the hosted page, QR and
 * provider routes (CONTRACT §9, `RATE_LIMITS` key `anonymous`).
 */
export const ANONYMOUS = 'anonymous';
/** Every budget `RATE_LIMITS` names: the merchants' operations and the anonymous one. */
export type RateLimitBudget = RateLimitedOperation | typeof ANONYMOUS;
export const RATE_LIMIT_BUDGETS: readonly RateLimitBudget[] = [...RATE_LIMITED_OPERATIONS, ANONYMOUS];

export const DEFAULT_RATE_LIMITS: Record<RateLimitBudget, number> = {
  payment_init: 100,
  payment_status: 300,
  payout_create: 50,
  payout_status: 300,
  balance: 60,
  credentials: 10,
  refund: 50,
  anonymous: 300,
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
  rateLimits: Record<RateLimitBudget, number> | null;
  /** Proxies whose `X-Forwarded-*` headers are believed (Fastify `trustProxy`). */
  trustProxy: boolean | string;
  logLevel: string;
  /** Runs the webhook dispatcher inside the service (default on). */
  runDispatcher: boolean;
  /** Limits a GraphQL document must pass before it runs (docs/graphql.md). */
  graphql: GraphQLLimits;
  /** Yoco Online Checkout (CONTRACT §9), when configured; the payment provider of `prd`. */
  yoco: YocoSettings | null;
  /** Ozow Pay by Bank (instant EFT, CONTRACT §11), when configured: offered beside cards. */
  ozow: OzowSettings | null;
  /** An attempt waiting longer than this is checked with the provider's status API (CONTRACT §9). */
  reconcileAfterMs: number;
  /**
   * A payment still created, initiated or awaiting_webhook this long after its creation is asked
   * about once more and, unless its provider says it was paid, fails as `expired` (CONTRACT §10).
   */
  paymentExpiresAfterMs: number;
  /**
   * A refund still pending this long after it was asked for is flagged (`zarpay stats`, /metrics):
   * its provider's outcome never came, and the operator checks with the provider and records it
   * (`zarpay refund resolve`, allowed only from then on).
   */
  refundPendingAlertMs: number;
  /** Runs the reconciler inside the service (default on); `zarpay reconciler` runs it alone. */
  runReconciler: boolean;
  /**
   * `DATA_KEY`: keys that seal bank details and voucher codes, the first sealing new data, all of
   * them opening old data. Empty: the key derived from SERVICE_SECRET does both (domain/sealing.ts).
   */
  dataKeys: DataKey[];
  /** Customer confirmations by e-mail; null when `SMTP_URL` is unset (nothing is sent). */
  smtp: SmtpSettings | null;
  /** Customer confirmations by SMS (BulkSMS); null when `SMS_URL` is unset (nothing is sent). */
  sms: SmsSettings | null;
  /** How far back an event stream may resume (`after`): older positions are refused (docs/graphql.md). */
  eventReplayWindowMs: number;
  /**
   * The account payouts are paid from, named in every bank file (`PAYOUT_DEBTOR_*`); null when
   * unset: payouts are then paid by hand and `zarpay payout batch export` refuses.
   */
  payoutDebtor: PayoutDebtor | null;
  /**
   * `PAYOUT_CUTOFF` (`HH:MM` in Africa/Johannesburg, default 14:00), as minutes after midnight: a
   * bank file written after it asks for the next business day as its execution date.
   */
  payoutCutoffMinutes: number;
}

export interface PayoutDebtor {
  name: string;
  accountNumber: string;
  branchCode: string;
  /** The bank the branch code belongs to (domain/za-banks.ts). */
  bankName: string;
}

export interface YocoSettings {
  secretKey: string;
  webhookSecret: string;
  apiUrl: string;
}

export interface OzowSettings {
  siteCode: string;
  privateKey: string;
  apiKey: string;
  apiUrl: string;
}

export interface DataKey {
  kid: string;
  key: Buffer;
}

export interface SmtpSettings {
  /** `smtp://` or `smtps://`, credentials included when the server needs them: never log it whole. */
  url: string;
  from: string;
}

export interface SmsSettings {
  /** The gateway's send-messages address (BulkSMS: https://api.bulksms.com/v1/messages). */
  url: string;
  /** `SMS_API_KEY`: the BulkSMS API token as `token-id:token-secret` (HTTP Basic): never log it. */
  apiKey: string;
}

export interface GraphQLLimits {
  /** Deepest selection nesting (CONTRACT §8: 10). */
  maxDepth: number;
  /** Estimated cost of an operation with its variables (graphql/cost.ts: objects 2, scalars 1, ×1.5 per level, × the rows of each list). */
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
    if (!name || !(RATE_LIMIT_BUDGETS as readonly string[]).includes(name)) {
      throw new ConfigError(`RATE_LIMITS: unknown operation "${name ?? ''}" (known: ${RATE_LIMIT_BUDGETS.join(', ')})`);
    }
    if (!value || !/^\d+$/.test(value) || Number(value) < 1) {
      throw new ConfigError(`RATE_LIMITS: ${name} needs a positive whole number`);
    }
    limits[name as RateLimitBudget] = Number(value);
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

/** Yoco's Checkout API (developer.yoco.com); tests point YOCO_API_URL at a local double. */
export const DEFAULT_YOCO_API_URL = 'https://payments.yoco.com/api';

/** `DATA_KEY`: `kid:base64-of-32-bytes`, comma-separated, the sealing key first. */
function parseDataKeys(raw: string | undefined): DataKey[] {
  if (raw === undefined || raw.trim() === '') return [];
  const keys = raw.split(',').map((part) => {
    const [kid, material, ...rest] = part.trim().split(':');
    if (!kid || !material || rest.length > 0 || !/^[A-Za-z0-9_-]{1,32}$/.test(kid)) {
      throw new ConfigError('DATA_KEY must be kid:base64key[,kid:base64key…] with kids of letters, digits, - and _');
    }
    const key = Buffer.from(material, 'base64');
    if (key.length !== 32 || key.toString('base64').replace(/=+$/, '') !== material.replace(/=+$/, '')) {
      throw new ConfigError(`DATA_KEY: key ${kid} must be 32 bytes in base64 (e.g. from: openssl rand -base64 32)`);
    }
    return { kid, key };
  });
  if (new Set(keys.map((k) => k.kid)).size !== keys.length) throw new ConfigError('DATA_KEY: a kid appears twice');
  return keys;
}

function parseYoco(env: NodeJS.ProcessEnv): YocoSettings | null {
  const secretKey = env.YOCO_SECRET_KEY || undefined;
  const webhookSecret = env.YOCO_WEBHOOK_SECRET || undefined;
  if (!secretKey && !webhookSecret) return null;
  if (!secretKey || !webhookSecret) throw new ConfigError('YOCO_SECRET_KEY and YOCO_WEBHOOK_SECRET are set together');
  // Messages name the setting, never its value.
  if (!/^sk_(live|test)_\S+$/.test(secretKey)) throw new ConfigError('YOCO_SECRET_KEY must be a Yoco secret key (sk_live_… or sk_test_…)');
  if (!/^whsec_[A-Za-z0-9+/=]+$/.test(webhookSecret)) throw new ConfigError('YOCO_WEBHOOK_SECRET must be the whsec_… secret Yoco returned when the webhook was registered');
  const apiUrl = (env.YOCO_API_URL || DEFAULT_YOCO_API_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+/.test(apiUrl)) throw new ConfigError('YOCO_API_URL must be an http(s) address');
  return { secretKey, webhookSecret, apiUrl };
}

/** Ozow's live API (hub.ozow.com); tests point OZOW_API_URL at a local double. */
export const DEFAULT_OZOW_API_URL = 'https://api.ozow.com';

function parseOzow(env: NodeJS.ProcessEnv, serviceEnv: string | undefined): OzowSettings | null {
  const names = ['OZOW_SITE_CODE', 'OZOW_PRIVATE_KEY', 'OZOW_API_KEY'] as const;
  const set = names.filter((n) => env[n]);
  if (set.length === 0) return null;
  if (set.length !== names.length) throw new ConfigError('OZOW_SITE_CODE, OZOW_PRIVATE_KEY and OZOW_API_KEY are set together (all three or none)');
  // Messages name the setting, never its value.
  for (const n of names) if (/\s/.test(env[n]!)) throw new ConfigError(`${n} must not contain whitespace`);
  const apiUrl = (env.OZOW_API_URL || DEFAULT_OZOW_API_URL).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new ConfigError('OZOW_API_URL must be an http(s) address');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError('OZOW_API_URL must be an http(s) address');
  if (serviceEnv === 'prd') {
    if (url.protocol !== 'https:') throw new ConfigError('OZOW_API_URL must be an https address in prd');
    // prd refuses Ozow's test mode as it refuses the sandbox: never its staging API.
    if (/(^|\.)stagingapi\.ozow\.com$/i.test(url.hostname)) throw new ConfigError("OZOW_API_URL is Ozow's staging (test) API, which prd refuses");
  }
  return { siteCode: env.OZOW_SITE_CODE!, privateKey: env.OZOW_PRIVATE_KEY!, apiKey: env.OZOW_API_KEY!, apiUrl };
}

function parseSmtp(env: NodeJS.ProcessEnv, publicBaseUrl: string): SmtpSettings | null {
  const url = env.SMTP_URL || undefined;
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// address');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// address');
  const from = env.SMTP_FROM || `zarpay <no-reply@${new URL(publicBaseUrl).hostname}>`;
  if (/[\r\n]/.test(from) || !/@/.test(from)) throw new ConfigError('SMTP_FROM must be an e-mail address, optionally with a name: Shop <pay@shop.example>');
  return { url, from };
}

/** `PAYOUT_DEBTOR_NAME`, `PAYOUT_DEBTOR_ACCOUNT` and `PAYOUT_DEBTOR_BRANCH_CODE`: all three or none. */
function parsePayoutDebtor(env: NodeJS.ProcessEnv): PayoutDebtor | null {
  const names = ['PAYOUT_DEBTOR_NAME', 'PAYOUT_DEBTOR_ACCOUNT', 'PAYOUT_DEBTOR_BRANCH_CODE'] as const;
  const set = names.filter((n) => env[n]);
  if (set.length === 0) return null;
  if (set.length < names.length) throw new ConfigError(`${names.join(', ')} are set together (missing: ${names.filter((n) => !env[n]).join(', ')})`);
  const name = env.PAYOUT_DEBTOR_NAME!.trim();
  const accountNumber = env.PAYOUT_DEBTOR_ACCOUNT!.trim();
  const branchCode = env.PAYOUT_DEBTOR_BRANCH_CODE!.trim();
  if (name.length === 0 || name.length > 140) throw new ConfigError('PAYOUT_DEBTOR_NAME must be 1 to 140 characters');
  if (!/^\d{5,20}$/.test(accountNumber)) throw new ConfigError('PAYOUT_DEBTOR_ACCOUNT must be 5 to 20 digits');
  const bank = bankForBranchCode(branchCode);
  if (!bank) throw new ConfigError('PAYOUT_DEBTOR_BRANCH_CODE must be a South African universal branch code (e.g. 250655 for FNB)');
  return { name, accountNumber, branchCode, bankName: bank.name };
}

function parseSms(env: NodeJS.ProcessEnv, serviceEnv: string | undefined): SmsSettings | null {
  const url = env.SMS_URL || undefined;
  const apiKey = env.SMS_API_KEY || undefined;
  if (!url && !apiKey) return null;
  if (!url || !apiKey) throw new ConfigError('SMS_URL and SMS_API_KEY are set together');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('SMS_URL must be an http(s) address, such as https://api.bulksms.com/v1/messages');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new ConfigError('SMS_URL must be an http(s) address, such as https://api.bulksms.com/v1/messages');
  // The API token travels in every request's Authorization header.
  if (serviceEnv === 'prd' && parsed.protocol !== 'https:') throw new ConfigError('SMS_URL must be an https address in prd');
  if (parsed.username || parsed.password) throw new ConfigError('SMS_URL must not carry credentials: put them in SMS_API_KEY');
  // Messages name the setting, never its value.
  if (!/^[^:\s]+:\S+$/.test(apiKey)) throw new ConfigError('SMS_API_KEY must be the BulkSMS API token as token-id:token-secret');
  return { url, apiKey };
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
  // Seven days: a tool that was down over a long weekend still resumes.
  const replayWindow = read('EVENT_REPLAY_WINDOW_MS', intFrom('EVENT_REPLAY_WINDOW_MS', 1000), '604800000');
  const graphqlLimits = {
    maxDepth: read('GRAPHQL_MAX_DEPTH', intFrom('GRAPHQL_MAX_DEPTH', 1), '10'),
    maxCost: read('GRAPHQL_MAX_COST', intFrom('GRAPHQL_MAX_COST', 1), '20000'),
    maxAliases: read('GRAPHQL_MAX_ALIASES', intFrom('GRAPHQL_MAX_ALIASES', 0), '15'),
    maxTokens: read('GRAPHQL_MAX_TOKENS', intFrom('GRAPHQL_MAX_TOKENS', 1), '1000'),
  };
  const reconcileAfter = read('RECONCILE_AFTER_MS', intFrom('RECONCILE_AFTER_MS', 100), '600000');
  const paymentExpiresAfter = read('PAYMENT_EXPIRES_AFTER_MS', intFrom('PAYMENT_EXPIRES_AFTER_MS', 1000), '86400000');
  const refundPendingAlert = read('REFUND_PENDING_ALERT_MS', intFrom('REFUND_PENDING_ALERT_MS', 1000), '86400000');
  const publicBaseUrl = (env.PUBLIC_BASE_URL || `http://localhost:${port ?? 8080}`).replace(/\/+$/, '');
  const parsed = <T>(parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (e) {
      problems.push((e as Error).message);
      return undefined;
    }
  };
  const rateLimits = parsed(() => parseRateLimits(env.RATE_LIMITS)) ?? null;
  const yoco = parsed(() => parseYoco(env)) ?? null;
  const ozow = parsed(() => parseOzow(env, serviceEnv)) ?? null;
  const dataKeys = parsed(() => parseDataKeys(env.DATA_KEY)) ?? [];
  const smtp = parsed(() => parseSmtp(env, publicBaseUrl)) ?? null;
  const sms = parsed(() => parseSms(env, serviceEnv)) ?? null;
  const payoutDebtor = parsed(() => parsePayoutDebtor(env)) ?? null;
  const payoutCutoffMinutes = parsed(() => {
    const minutes = cutoffMinutes(env.PAYOUT_CUTOFF ?? '14:00');
    if (minutes === null) throw new ConfigError('PAYOUT_CUTOFF must be a time of day, HH:MM (24-hour, Africa/Johannesburg), e.g. 14:00');
    return minutes;
  }) ?? 14 * 60;

  if (serviceEnv === 'prd') {
    const missing = ['OPERATOR_TOKEN', 'SERVICE_SECRET', 'DATABASE_URL', 'PUBLIC_BASE_URL'].filter((name) => !env[name]);
    if (missing.length > 0) problems.push(`SERVICE_ENV=prd requires ${missing.join(', ')}`);
    if (env.SERVICE_SECRET && env.SERVICE_SECRET.length < 32) {
      problems.push('SERVICE_SECRET must be at least 32 characters');
    }
    // The operator token unlocks every merchant's money: a short one could be guessed online.
    if (env.OPERATOR_TOKEN && env.OPERATOR_TOKEN.length < 32) problems.push('OPERATOR_TOKEN must be at least 32 characters');
    // Payment addresses, the provider's return addresses and QR links are built on it: in prd
    // they must be the public https address customers reach.
    if (env.PUBLIC_BASE_URL && !env.PUBLIC_BASE_URL.startsWith('https://')) problems.push('PUBLIC_BASE_URL must be an https address in prd');
    // The sandbox never runs in prd: without a real provider (Yoco, or Ozow's three settings) no payment could be taken.
    const provider = ['YOCO_SECRET_KEY', 'YOCO_WEBHOOK_SECRET'].filter((name) => !env[name]);
    const ozowSet = ['OZOW_SITE_CODE', 'OZOW_PRIVATE_KEY', 'OZOW_API_KEY'].some((name) => env[name]);
    if (provider.length > 0 && !ozowSet) problems.push(`SERVICE_ENV=prd requires a real payment provider: set ${provider.join(', ')} (Yoco)`);
  }
  if (problems.length > 0) throw new ConfigError(`invalid settings: ${problems.join('; ')}`);

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
    yoco,
    ozow,
    reconcileAfterMs: reconcileAfter!,
    paymentExpiresAfterMs: paymentExpiresAfter!,
    refundPendingAlertMs: refundPendingAlert!,
    runReconciler: env.RUN_RECONCILER !== 'false',
    dataKeys,
    smtp,
    sms,
    eventReplayWindowMs: replayWindow!,
    payoutDebtor,
    payoutCutoffMinutes,
  };
}
