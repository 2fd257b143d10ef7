import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_RATE_LIMITS, loadConfig } from '../src/config.ts';

const dataDir = () => mkdtempSync(join(tmpdir(), 'zarpay-config-'));

describe('settings (CONTRACT §1)', () => {
  it('has the contract\'s defaults and generates local secrets in tst', () => {
    const dir = dataDir();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      serviceEnv: 'tst',
      publicBaseUrl: 'http://localhost:8080',
      webhookRetryDelaysMs: [5000, 300000, 1800000, 7200000],
      webhookTimeoutMs: 10000,
      webhookSecretRotationWindowMs: 86400000,
      qrUrlTtlMs: 86400000,
      sandboxConfirmDelayMs: 1000,
      rateLimits: DEFAULT_RATE_LIMITS,
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(readFileSync(join(dir, 'operator-token'), 'utf8').trim()).toBe(c.operatorToken);
    // The same token on the next start, so the CLI keeps working.
    expect(loadConfig({ DATA_DIR: dir }).operatorToken).toBe(c.operatorToken);
  });

  it('refuses to start prd without its required settings, naming them', () => {
    expect(() => loadConfig({ SERVICE_ENV: 'prd', DATA_DIR: dataDir() })).toThrow(
      new ConfigError(
        'invalid settings: SERVICE_ENV=prd requires OPERATOR_TOKEN, SERVICE_SECRET, DATABASE_URL, PUBLIC_BASE_URL; ' +
          'SERVICE_ENV=prd requires a real payment provider: set YOCO_SECRET_KEY, YOCO_WEBHOOK_SECRET (Yoco)',
      ),
    );
    expect(() => loadConfig({ SERVICE_ENV: 'prd', OPERATOR_TOKEN: 't', SERVICE_SECRET: 's'.repeat(40), DATA_DIR: dataDir() })).toThrow(/DATABASE_URL/);
  });

  it('refuses prd without a real payment provider, in one line naming what is missing, and an http PUBLIC_BASE_URL', () => {
    const prd = {
      SERVICE_ENV: 'prd',
      OPERATOR_TOKEN: 'o'.repeat(40),
      SERVICE_SECRET: 's'.repeat(40),
      DATABASE_URL: 'postgres://db/zarpay',
      PUBLIC_BASE_URL: 'https://pay.example.co.za',
      DATA_DIR: dataDir(),
    };
    expect(() => loadConfig(prd)).toThrow(
      new ConfigError('invalid settings: SERVICE_ENV=prd requires a real payment provider: set YOCO_SECRET_KEY, YOCO_WEBHOOK_SECRET (Yoco)'),
    );
    expect(() => loadConfig({ ...prd, YOCO_SECRET_KEY: 'sk_live_abc' })).toThrow(/YOCO_SECRET_KEY and YOCO_WEBHOOK_SECRET are set together/);
    const yoco = { YOCO_SECRET_KEY: 'sk_live_abc', YOCO_WEBHOOK_SECRET: 'whsec_c2VjcmV0' };
    expect(() => loadConfig({ ...prd, ...yoco, PUBLIC_BASE_URL: 'http://pay.example.co.za' })).toThrow(/PUBLIC_BASE_URL must be an https address in prd/);
    expect(loadConfig({ ...prd, ...yoco }).yoco).toEqual({ secretKey: 'sk_live_abc', webhookSecret: 'whsec_c2VjcmV0', apiUrl: 'https://payments.yoco.com/api' });
  });

  it('refuses prd with an OPERATOR_TOKEN shorter than 32 characters, in one line that does not echo it (CONTRACT §9)', () => {
    const prd = {
      SERVICE_ENV: 'prd',
      SERVICE_SECRET: 's'.repeat(40),
      DATABASE_URL: 'postgres://db/zarpay',
      PUBLIC_BASE_URL: 'https://pay.example.co.za',
      YOCO_SECRET_KEY: 'sk_live_abc',
      YOCO_WEBHOOK_SECRET: 'whsec_c2VjcmV0',
      DATA_DIR: dataDir(),
    };
    for (const token of ['x', 'Sh0rtButN0tTh4tShort-31-chars!!']) {
      expect(token.length).toBeLessThan(32);
      let refusal: unknown;
      try {
        loadConfig({ ...prd, OPERATOR_TOKEN: token });
      } catch (e) {
        refusal = e;
      }
      expect(refusal).toEqual(new ConfigError('invalid settings: OPERATOR_TOKEN must be at least 32 characters'));
      expect(String((refusal as Error).message)).not.toContain(token);
    }
    // 32 is enough; what the production walk generates (24 random bytes in hex) is 48.
    expect(loadConfig({ ...prd, OPERATOR_TOKEN: 't'.repeat(32) }).operatorToken).toBe('t'.repeat(32));
    expect(loadConfig({ ...prd, OPERATOR_TOKEN: randomBytes(24).toString('hex') }).operatorToken).toHaveLength(48);
    // Outside prd a short token is the operator's own business (a laptop, a test).
    expect(loadConfig({ DATA_DIR: dataDir(), OPERATOR_TOKEN: 'x' }).operatorToken).toBe('x');
  });

  it('reads the provider, reconciler, data key and SMTP settings, refusing bad values without echoing secrets', () => {
    const c = loadConfig({ DATA_DIR: dataDir() });
    expect(c).toMatchObject({ yoco: null, reconcileAfterMs: 600_000, runReconciler: true, dataKeys: [], smtp: null });
    const key = Buffer.alloc(32, 7).toString('base64');
    const set = loadConfig({
      DATA_DIR: dataDir(),
      RECONCILE_AFTER_MS: '5000',
      RUN_RECONCILER: 'false',
      DATA_KEY: `k2:${key},k1:${Buffer.alloc(32, 1).toString('base64')}`,
      SMTP_URL: 'smtp://user:pw@127.0.0.1:2525',
      YOCO_SECRET_KEY: 'sk_test_abc',
      YOCO_WEBHOOK_SECRET: 'whsec_c2VjcmV0',
      YOCO_API_URL: 'http://127.0.0.1:4343/api/',
    });
    expect(set).toMatchObject({ reconcileAfterMs: 5000, runReconciler: false, smtp: { url: 'smtp://user:pw@127.0.0.1:2525', from: 'zarpay <no-reply@localhost>' } });
    expect(set.dataKeys.map((k) => k.kid)).toEqual(['k2', 'k1']);
    expect(set.yoco?.apiUrl).toBe('http://127.0.0.1:4343/api');
    for (const [env, message] of [
      [{ DATA_KEY: 'nokid' }, /DATA_KEY must be kid:base64key/],
      [{ DATA_KEY: `k1:${Buffer.alloc(16).toString('base64')}` }, /DATA_KEY: key k1 must be 32 bytes/],
      [{ DATA_KEY: `k1:${key},k1:${key}` }, /a kid appears twice/],
      [{ SMTP_URL: 'http://mail.example' }, /SMTP_URL must be an smtp/],
      [{ SMTP_URL: 'smtp://127.0.0.1', SMTP_FROM: 'nobody' }, /SMTP_FROM/],
      [{ RECONCILE_AFTER_MS: '10' }, /RECONCILE_AFTER_MS must be at least 100/],
      [{ YOCO_SECRET_KEY: 'pk_live_secretvalue', YOCO_WEBHOOK_SECRET: 'whsec_c2VjcmV0' }, /YOCO_SECRET_KEY must be a Yoco secret key/],
    ] as const) {
      const error = (() => {
        try {
          loadConfig({ DATA_DIR: dataDir(), ...env });
        } catch (e) {
          return (e as Error).message;
        }
        return 'accepted';
      })();
      expect(error).toMatch(message);
      expect(error).not.toContain('secretvalue');
      expect(error).not.toContain(key);
    }
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ SERVICE_ENV: 'staging' }, /SERVICE_ENV/],
    [{ WEBHOOK_RETRY_DELAYS_MS: '1,2,3' }, /WEBHOOK_RETRY_DELAYS_MS/],
    [{ WEBHOOK_TIMEOUT_MS: '-1' }, /WEBHOOK_TIMEOUT_MS/],
    [{ RATE_LIMITS: 'payment_init=abc' }, /RATE_LIMITS/],
    [{ RATE_LIMITS: 'coffee=3' }, /RATE_LIMITS: unknown operation "coffee"/],
  ])('rejects %j with a message naming the setting', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
  });

  it('reads RATE_LIMITS overrides and off', () => {
    const c = loadConfig({ DATA_DIR: dataDir(), RATE_LIMITS: 'payment_init=1000,payout_create=500' });
    expect(c.rateLimits).toEqual({ ...DEFAULT_RATE_LIMITS, payment_init: 1000, payout_create: 500 });
    expect(loadConfig({ DATA_DIR: dataDir(), RATE_LIMITS: 'off' }).rateLimits).toBeNull();
  });

  it('reads the anonymous budget from RATE_LIMITS, 300 a minute by default (CONTRACT §9)', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).rateLimits?.anonymous).toBe(300);
    const c = loadConfig({ DATA_DIR: dataDir(), RATE_LIMITS: 'anonymous=1200,balance=90' });
    expect(c.rateLimits).toEqual({ ...DEFAULT_RATE_LIMITS, anonymous: 1200, balance: 90 });
    expect(() => loadConfig({ DATA_DIR: dataDir(), RATE_LIMITS: 'anonymous=0' })).toThrow(/RATE_LIMITS: anonymous needs a positive whole number/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), RATE_LIMITS: 'anon=5' })).toThrow(/known: .*credentials, refund, anonymous/);
  });

  it('derives PUBLIC_BASE_URL from PORT unless given', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '9000' }).publicBaseUrl).toBe('http://localhost:9000');
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_BASE_URL: 'https://pay.example.co.za/' }).publicBaseUrl).toBe('https://pay.example.co.za');
  });
});
