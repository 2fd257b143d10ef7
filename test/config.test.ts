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
      new ConfigError('invalid settings: SERVICE_ENV=prd requires OPERATOR_TOKEN, SERVICE_SECRET, DATABASE_URL'),
    );
    expect(() => loadConfig({ SERVICE_ENV: 'prd', OPERATOR_TOKEN: 't', SERVICE_SECRET: 's'.repeat(40), DATA_DIR: dataDir() })).toThrow(/DATABASE_URL/);
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

  it('derives PUBLIC_BASE_URL from PORT unless given', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '9000' }).publicBaseUrl).toBe('http://localhost:9000');
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_BASE_URL: 'https://pay.example.co.za/' }).publicBaseUrl).toBe('https://pay.example.co.za');
  });
});
