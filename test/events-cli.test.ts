import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, payoutBody } from './support/client.ts';
import { eventually, type Receiver, startReceiver } from './support/receiver.ts';
import { OPERATOR } from '../src/domain/actor.ts';

let t: TestApp;
let receiver: Receiver;
const root = join(import.meta.dirname, '..');

beforeAll(async () => {
  t = await startApp({ WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const env = (app: TestApp = t) => ({ ...process.env, ZARPAY_URL: app.url, OPERATOR_TOKEN: app.config.operatorToken });

/** `npx zarpay …` as an operator would run it; resolves with exit code and output. */
function zarpay(args: string[], app: TestApp = t): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/zarpay.js', ...args], { cwd: root, env: env(app) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr })));
}

it('events tail prints committed events as NDJSON; webhooks deliveries and redeliver show the log', async () => {
  const shop = await createMerchant(t, { webhookUrl: receiver.url });
  await credit(t, shop.id, 100_000);
  const tail = spawn(process.execPath, ['bin/zarpay.js', 'events', 'tail', '--merchant', shop.id], { cwd: root, env: env() });
  let out = '';
  tail.stdout.on('data', (c: Buffer) => (out += c));
  await eventually(async () => t.app.services.events.subscriberCount >= 2, 15_000);

  const p = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(2_500) })).body.data;
  const line = await eventually(async () => out.split('\n').find((l) => l.trim()));
  const event = JSON.parse(line);
  expect(event).toMatchObject({ type: 'payout.created', merchant_id: shop.id, data: { id: p.id, amount_cents: 2_500 } });
  const exited = new Promise<number | null>((resolve) => tail.once('exit', resolve));
  tail.kill('SIGINT');
  expect(await exited).toBe(0);

  await receiver.waitFor(1);
  await eventually(async () => (await t.app.services.webhookDeliveries.list(OPERATOR, { eventId: event.id }))[0]?.status === 'succeeded');
  const log = await zarpay(['webhooks', 'deliveries', '--event', event.id]);
  expect(log.code).toBe(0);
  expect(JSON.parse(log.stdout)).toEqual([
    expect.objectContaining({ event_id: event.id, event_type: 'payout.created', delivery_status: 'succeeded', attempt: 1, status_code: 200, succeeded: true }),
  ]);

  const redo = await zarpay(['webhooks', 'redeliver', event.id]);
  expect(redo.code).toBe(0);
  expect(JSON.parse(redo.stdout)).toEqual([expect.objectContaining({ event_id: event.id, delivery_status: 'pending' })]);
  await receiver.waitFor(2);

  const missing = await zarpay(['webhooks', 'redeliver', '00000000-0000-4000-8000-000000000000']);
  expect(missing.code).toBe(1);
  expect(JSON.parse(missing.stderr)).toMatchObject({ code: 'NOT_FOUND' });
});

it('webhooks deliveries filters by status and limit, and shows one row per delivery on a terminal; redeliver supersedes a delivery still retrying', async () => {
  // Nothing listens at this URL: every attempt fails, and the delivery waits a minute to retry.
  const slow = await startApp({ WEBHOOK_RETRY_DELAYS_MS: '60000,60000,60000,60000' });
  try {
    const shop = await createMerchant(slow, { webhookUrl: 'http://127.0.0.1:9/hooks' });
    await credit(slow, shop.id, 100_000);
    await http(slow, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) });
    const [first] = await eventually(async () => {
      const list = await slow.app.services.webhookDeliveries.list(OPERATOR, { merchantId: shop.id });
      return list.length && list[0]!.attemptLog.length >= 1 ? list : undefined;
    });

    const table = await zarpay(['webhooks', 'deliveries', '--merchant', shop.id, '--format', 'table'], slow);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+EVENT\s+MERCHANT\s+STATUS\s+ATTEMPTS/);
    const rows = table.stdout.split('\n').filter((l) => l.startsWith(first!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/payout\.created\s+\S+\s+pending\s+refused/);

    const succeeded = await zarpay(['webhooks', 'deliveries', '--merchant', shop.id, '--status', 'succeeded', '--limit', '5'], slow);
    expect(JSON.parse(succeeded.stdout)).toEqual([]);

    const redo = await zarpay(['webhooks', 'redeliver', first!.eventId], slow);
    expect(redo.code, redo.stderr).toBe(0);
    const fresh = JSON.parse(redo.stdout)[0].delivery_id;
    const after = await slow.app.services.webhookDeliveries.list(OPERATOR, { eventId: first!.eventId });
    const original = after.find((d) => d.id === first!.id)!;
    expect(original).toMatchObject({ status: 'failed', lastError: `superseded by redelivery ${fresh}`, nextAttemptAt: null });
    expect(after.filter((d) => d.status === 'pending').map((d) => d.id)).toEqual([fresh]);

    const bad = await zarpay(['webhooks', 'deliveries', '--limit', '500'], slow);
    expect(JSON.parse(bad.stderr)).toEqual({ code: 'VALIDATION_FAILED', message: '--limit must be 1 to 100' });
  } finally {
    await slow.close();
  }
  // A second service and five CLI processes: on a busy two-core machine, well past the default.
}, 120_000);
