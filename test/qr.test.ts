import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey, hmacHex, qrMessage } from '../src/domain/signing.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, http, type TestMerchant } from './support/client.ts';
import { newPayment, pathOf } from './support/payments.ts';

// jsqr is CommonJS with an ES-style default in its types: take the function either way.
type JsQR = typeof jsQRModule.default;
const jsQR: JsQR = (jsQRModule as unknown as { default?: JsQR }).default ?? (jsQRModule as unknown as JsQR);

let t: TestApp;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
  shop = await createMerchant(t);
});
afterAll(() => t?.close());

async function fetchBytes(path: string) {
  const res = await fetch(t.url + path);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('QR codes', () => {
  it('the PNG is at least 256×256 and decodes to exactly payment_url', async () => {
    const p = await newPayment(t, shop, { include_qr: true });
    const png = await fetchBytes(pathOf(p.qr_code!.image_url));
    expect(png.status).toBe(200);
    expect(png.type).toBe('image/png');
    const image = PNG.sync.read(png.bytes);
    expect(image.width).toBeGreaterThanOrEqual(256);
    expect(image.height).toBeGreaterThanOrEqual(256);
    const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
    expect(decoded?.data).toBe(p.payment_url);
  });

  it('the same query works with .svg', async () => {
    const p = await newPayment(t, shop, { include_qr: true });
    const svg = await fetchBytes(pathOf(p.qr_code!.image_url.replace('.png?', '.svg?')));
    expect(svg.status).toBe(200);
    expect(svg.type).toMatch(/^image\/svg\+xml/);
    expect(svg.bytes.toString()).toMatch(/^<svg[^>]+xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('a tampered, foreign, malformed or expired link is 403 FORBIDDEN', async () => {
    const p = await newPayment(t, shop, { include_qr: true });
    const other = await newPayment(t, shop, { include_qr: true });
    const url = new URL(p.qr_code!.image_url);
    const expires = Number(url.searchParams.get('expires'));
    const signature = url.searchParams.get('signature')!;
    const flipped = (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1);
    const key = deriveKey(t.config.serviceSecret, 'qr-url');
    const past = Math.floor(Date.now() / 1000) - 1;
    const bad = [
      `/qr/${p.payment_id}.png?expires=${expires}&signature=${flipped}`,
      `/qr/${p.payment_id}.png?expires=${expires + 1}&signature=${signature}`,
      `/qr/${other.payment_id}.png?expires=${expires}&signature=${signature}`,
      `/qr/${p.payment_id}.png?expires=${expires}`,
      `/qr/${p.payment_id}.png?signature=${signature}`,
      `/qr/${p.payment_id}.png?expires=${expires}&signature=${signature.slice(0, 10)}`,
      `/qr/${p.payment_id}.gif?expires=${expires}&signature=${signature}`,
      `/qr/not-a-payment.png?expires=${expires}&signature=${signature}`,
      // Correctly signed, but expired.
      `/qr/${p.payment_id}.png?expires=${past}&signature=${hmacHex(key, qrMessage(p.payment_id, past))}`,
    ];
    for (const path of bad) {
      const res = await http(t, 'GET', path);
      expect(res.status, path).toBe(403);
      expect(res.body, path).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' }, metadata: { api_version: 'v1' } });
    }
  });

  it('expires QR_URL_TTL_MS after initiation', async () => {
    const p = await newPayment(t, shop, { include_qr: true });
    const row = await t.database.db.selectFrom('payments').select('created_at').where('id', '=', p.payment_id).executeTakeFirstOrThrow();
    const expires = Number(new URL(p.qr_code!.image_url).searchParams.get('expires'));
    expect(expires).toBe(Math.floor((row.created_at.getTime() + t.config.qrUrlTtlMs) / 1000));
    // The link of a payment initiated one TTL ago (plus a second) no longer works.
    const old = t.app.services.paymentLinks.qrImageUrl({ id: p.payment_id, createdAt: new Date(Date.now() - t.config.qrUrlTtlMs - 1000) });
    expect((await http(t, 'GET', pathOf(old))).status).toBe(403);
    const fresh = t.app.services.paymentLinks.qrImageUrl({ id: p.payment_id, createdAt: new Date(Date.now() - t.config.qrUrlTtlMs + 60_000) });
    expect((await http(t, 'GET', pathOf(fresh))).status).toBe(200);
  });
});

describe('operator CLI', () => {
  it('zarpay payment settle ID --outcome captured prints the payment status object; payment show reads it back', async () => {
    const p = await newPayment(t, shop, { amount: 6_000 });
    const env = { ...process.env, ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken };
    const { stdout } = await promisify(execFile)('node', ['bin/zarpay.js', 'payment', 'settle', p.payment_id, '--outcome', 'captured'], { env });
    const printed = JSON.parse(stdout);
    expect(printed).toMatchObject({ payment_id: p.payment_id, status: 'captured', amount: 6_000, currency: 'ZAR', latest_attempt: { status: 'succeeded', provider: 'operator' } });
    const shown = await promisify(execFile)('node', ['bin/zarpay.js', 'payment', 'show', p.payment_id], { env });
    expect(JSON.parse(shown.stdout)).toEqual(printed);
    const again = await promisify(execFile)('node', ['bin/zarpay.js', 'payment', 'settle', p.payment_id, '--outcome', 'failed'], { env }).catch((e) => e);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr).code).toBe('INVALID_STATUS_TRANSITION');
  });
});
