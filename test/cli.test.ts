import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRD_PROVIDER, startApp, type TestApp, usingPostgres } from './support/app.ts';
import { http, payoutBody } from './support/client.ts';
import { zarpay } from './support/processes.ts';

let t: TestApp;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startApp();
  env = { ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken };
});
afterAll(() => t?.close());

// Each call starts a real process, so these tests are slower than the in-process ones.
describe('zarpay CLI (CONTRACT §7)', { timeout: 120_000 }, () => {
  it('walks a merchant from creation to a completed payout, printing REST-shaped JSON', async () => {
    const created = await zarpay(['merchant', 'create', '--name', 'Spaza Shop', '--payout-fee-cents', '300', '--auto-topup'], env);
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ name: 'Spaza Shop', payout_fee_cents: 300, auto_topup: true });
    const { merchant_id, api_key } = created.json;
    expect(api_key).toMatch(/^sec1-tst-/);

    const updated = await zarpay(['merchant', 'update', merchant_id, '--allow-redirect-domain', 'shop.example.co.za', '--auto-topup', 'false'], env);
    expect(updated.json).toMatchObject({ merchant_id, auto_topup: false, redirect_domains: ['shop.example.co.za'] });

    const credited = await zarpay(['balance', 'credit', merchant_id, '25000'], env);
    expect(credited.json).toMatchObject({ merchant_id, balance_cents: 25_000, available_cents: 25_000, totals: { gross_cents: 25_000 } });

    const p = (await http(t, 'POST', '/api/v1/payouts', { key: api_key, body: payoutBody(10_000) })).body.data;
    const listed = await zarpay(['payout', 'list', '--status', 'pending', '--merchant', merchant_id], env);
    expect(listed.json.total).toBe(1);
    expect(listed.json.payouts[0]).toMatchObject({ id: p.id, status: 'pending', payout_method: 'eft', gross_amount_cents: 10_300 });

    expect((await zarpay(['payout', 'approve', p.id], env)).json.status).toBe('approved');
    expect((await zarpay(['payout', 'process', p.id], env)).json.status).toBe('processing');
    const done = await zarpay(['payout', 'complete', p.id, '--transfer-id', 'ABSA-991'], env);
    expect(done.json).toMatchObject({ status: 'completed', external_transfer_id: 'ABSA-991' });

    const verify = await zarpay(['ledger', 'verify'], env);
    expect(verify.code).toBe(0);
    expect(verify.json).toMatchObject({ ok: true, problems: [] });

    // The statement of the day (SAST), as REST answers it, and as CSV.
    const day = new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10);
    const statement = await zarpay(['statement', merchant_id, '--from', day, '--to', day], env);
    expect(statement.code).toBe(0);
    const rest = (await http(t, 'GET', `/api/v1/statements?from=${day}&to=${day}`, { key: api_key })).body.data;
    expect(statement.json).toEqual(rest);
    expect(rest).toMatchObject({ opening_balance_cents: 0, closing_balance_cents: 14_700, total: 3 });
    const csv = await zarpay(['statement', merchant_id, '--from', day, '--to', day, '--csv'], env);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toBe('posted_at,type,reference,amount_cents,balance_after_cents,description');
    expect(lines.slice(1, -1).map((l) => l.split(',').slice(1, 5))).toEqual([
      ['credit', '', '25000', '25000'],
      ['payout', p.id, '-10000', '15000'],
      ['payout_fee', p.id, '-300', '14700'],
    ]);
    const bad = await zarpay(['statement', merchant_id, '--from', day, '--to', '2020-01-01'], env);
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('issues, revokes and expires keys', async () => {
    const m = (await zarpay(['merchant', 'create', '--name', 'Keys'], env)).json;
    const issued = await zarpay(['key', 'issue', m.merchant_id], env);
    expect(issued.json).toMatchObject({ status: 'active', type: 'secret', env: 'tst' });
    expect(issued.json.full_key).toMatch(/^sec1-tst-/);
    expect((await zarpay(['key', 'revoke', issued.json.kid], env)).json.status).toBe('revoked');
    expect((await zarpay(['key', 'expire', m.api_key_record.kid], env)).json.status).toBe('expired');
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: m.api_key })).status).toBe(403);
  });

  it('reports failures as {code, message} on stderr with exit 1', async () => {
    const m = (await zarpay(['merchant', 'create', '--name', 'Errors'], env)).json;
    const cases: [string[], string][] = [
      [['payout', 'approve', '00000000-0000-0000-0000-000000000000'], 'PAYOUT_NOT_FOUND'],
      [['balance', 'credit', m.merchant_id, 'ten'], 'VALIDATION_FAILED'],
      [['payout', 'reject', '00000000-0000-0000-0000-000000000000'], 'VALIDATION_FAILED'],
      [['merchant', 'create'], 'VALIDATION_FAILED'],
      [['key', 'revoke', 'nosuchkid'], 'NOT_FOUND'],
    ];
    for (const [args, code] of cases) {
      const r = await zarpay(args, env);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.json, args.join(' ')).toEqual({ code, message: expect.any(String) });
    }
    const wrongToken = await zarpay(['payout', 'list'], { ...env, OPERATOR_TOKEN: 'wrong' });
    expect(wrongToken.json.code).toBe('UNAUTHORIZED');
    const unreachable = await zarpay(['payout', 'list'], { ...env, ZARPAY_URL: 'http://127.0.0.1:9' });
    expect(unreachable.json.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('shows the approval queue and stats as tables for a terminal, JSON otherwise', async () => {
    const m = (await zarpay(['merchant', 'create', '--name', 'Queue', '--payout-fee-cents', '150'], env)).json;
    await zarpay(['balance', 'credit', m.merchant_id, '90000'], env);
    await http(t, 'POST', '/api/v1/payouts', { key: m.api_key, body: payoutBody(12_345, { merchant_reference: 'Q-1' }) });
    const table = await zarpay(['payout', 'list', '--status', 'pending', '--merchant', m.merchant_id, '--format', 'table'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+MERCHANT\s+STATUS\s+AMOUNT/);
    expect(table.stdout).toContain('R 123.45');
    expect(table.stdout).toContain('R 124.95');
    expect(table.stdout).toContain('Q-1');
    expect(table.stdout).toContain('1 of 1 payout');

    const stats = await zarpay(['stats'], env);
    expect(stats.code).toBe(0);
    expect(stats.json.payouts).toContainEqual({ status: 'pending', count: expect.any(Number), gross_cents: expect.any(Number) });
    expect(stats.json.reserved_cents).toBeGreaterThanOrEqual(12_495);
    expect(stats.json).toMatchObject({ deliveries_failed: expect.any(Number), deliveries_pending: expect.any(Number) });
    const statsTable = await zarpay(['stats', '--format', 'table'], env);
    expect(statsTable.stdout).toMatch(/pending\s+\d+\s+R /);
    expect(statsTable.stdout).toContain('reserved:');
    expect(statsTable.stdout).toContain('webhooks failing:');
  });

  it('finds the operator token a tst service generated under DATA_DIR', async () => {
    const r = await zarpay(['payout', 'list'], { ZARPAY_URL: t.url, DATA_DIR: t.config.dataDir });
    expect(r.code).toBe(0);
    expect(r.json).toHaveProperty('total');
  });
});

describe('zarpay CLI for an operator at a terminal', { timeout: 120_000 }, () => {
  it('lists and shows merchants, pages payouts with --offset, and prints its version', async () => {
    const m = (await zarpay(['merchant', 'create', '--name', 'Lungi Butchery', '--support-contact', 'help@lungi.example.co.za', '--payout-fee-cents', '100'], env)).json;
    expect(m.support_contact).toBe('help@lungi.example.co.za');
    await zarpay(['balance', 'credit', m.merchant_id, '50000'], env);
    for (const ref of ['P-1', 'P-2', 'P-3']) await http(t, 'POST', '/api/v1/payouts', { key: m.api_key, body: payoutBody(1_000, { merchant_reference: ref }) });

    const list = await zarpay(['merchant', 'list'], env);
    expect(list.json.merchants).toContainEqual(expect.objectContaining({ merchant_id: m.merchant_id, name: 'Lungi Butchery' }));
    const table = await zarpay(['merchant', 'list', '--format', 'table'], env);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+PAYMENT_FEE/);
    expect(table.stdout).toContain('Lungi Butchery');

    const shown = await zarpay(['merchant', 'show', m.merchant_id], env);
    expect(shown.json).toMatchObject({ merchant_id: m.merchant_id, balance: { balance_cents: 50_000, reserved_cents: 3_300 }, api_keys: [{ status: 'active' }] });
    expect(JSON.stringify(shown.json)).not.toContain(m.api_key);

    const page = await zarpay(['payout', 'list', '--merchant', m.merchant_id, '--limit', '1', '--offset', '1'], env);
    expect(page.json.total).toBe(3);
    expect(page.json.payouts.map((p: any) => p.merchant_reference)).toEqual(['P-2']);
    const beyond = await zarpay(['payout', 'list', '--merchant', m.merchant_id, '--offset', '5'], env);
    expect(beyond.json).toEqual({ payouts: [], total: 3 });

    const version = await zarpay(['--version'], env);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('gives a description for every command', async () => {
    const { buildProgram } = await import('../src/cli/main.ts');
    const walk = (c: any): any[] => c.commands.flatMap((s: any) => [s, ...walk(s)]);
    const missing = walk(buildProgram())
      .filter((c) => !c.description())
      .map((c) => c.name());
    expect(missing).toEqual([]);
  });

  it('refuses bad input in the language of flags', async () => {
    const m = (await zarpay(['merchant', 'create', '--name', 'Flags'], env)).json;
    const cases: [string[], string][] = [
      [['balance', 'credit', m.merchant_id, '-5'], '<cents> must be greater than 0'],
      [['balance', 'credit', m.merchant_id, '12.50'], '<cents> must be a whole number (amounts are in cents)'],
      [['balance', 'credit', m.merchant_id, '99999999999999999999'], '<cents> is too large (at most 10000000000000)'],
      [['payout', 'approve', 'abc'], '<payout-id> must be an id such as 3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11'],
      [['payout', 'list', '--limit', '500'], '--limit must be 1 to 100'],
      [['payout', 'list', '--status', 'done'], '--status must be one of pending, approved, processing, completed, failed, rejected'],
      [['merchant', 'update', m.merchant_id, '--webhook-url', 'not a url'], '--webhook-url: must be an http(s) URL'],
      [['merchant', 'update', m.merchant_id, '--support-contact', 'ask at the till'], '--support-contact: must be an e-mail address, a phone number or an http(s) URL'],
    ];
    for (const [args, message] of cases) {
      const r = await zarpay(args, env);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json, args.join(' ')).toEqual({ code: 'VALIDATION_FAILED', message });
    }
  });

  it.skipIf(!usingPostgres)('reads a REST refusal (a prd service over plain HTTP) as what it is (needs PostgreSQL: prd requires DATABASE_URL)', async () => {
    const prd = await startApp({ SERVICE_ENV: 'prd', OPERATOR_TOKEN: 'o'.repeat(40), SERVICE_SECRET: 's'.repeat(40), ...PRD_PROVIDER });
    try {
      const r = await zarpay(['merchant', 'list'], { ZARPAY_URL: prd.url, OPERATOR_TOKEN: 'o'.repeat(40) });
      expect(r.json).toEqual({ code: 'FORBIDDEN', message: 'HTTPS is required' });
    } finally {
      await prd.close();
    }
  });
});
