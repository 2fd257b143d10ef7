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

const env = () => ({ ...process.env, ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken });

/** `npx zarpay …` as an operator would run it; resolves with exit code and output. */
function zarpay(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/zarpay.js', ...args], { cwd: root, env: env() });
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
