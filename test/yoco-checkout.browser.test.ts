import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, op, type TestMerchant } from './support/client.ts';
import { getPayment, newPayment, pathOf } from './support/payments.ts';
import { freePort } from './support/processes.ts';
import { startYocoDouble, type YocoDouble } from './support/yoco-double.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * The hand-off to Yoco's checkout and back, in a real browser without JavaScript: the page's CSP
 * lets form posts end only on known origins, so Pay lands on zarpay's own hand-off page, which
 * forwards to Yoco; Yoco's page sends the customer back to zarpay's return address.
 */
describe.skipIf(!existsSync(CHROMIUM))(`paying with Yoco in headless Chromium (needs ${CHROMIUM})`, () => {
  let t: TestApp;
  let yoco: YocoDouble;
  let shop: TestMerchant;
  let browser: Browser;
  let context: BrowserContext;
  let merchantSite: Server;
  let site: string;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    yoco = await startYocoDouble();
    // Yoco sends the browser back to PUBLIC_BASE_URL: it must be where the service listens.
    const port = await freePort();
    // As a deployment does once: register zarpay's webhook with Yoco, which shows its own secret once.
    const registered = await fetch(`${yoco.apiUrl}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${yoco.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'zarpay', url: `http://127.0.0.1:${port}/providers/yoco/webhook` }),
    }).then((r) => r.json() as Promise<{ secret: string }>);
    expect(registered.secret).toMatch(/^whsec_/);
    t = await startApp({
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      YOCO_SECRET_KEY: yoco.secretKey,
      YOCO_WEBHOOK_SECRET: registered.secret,
      YOCO_API_URL: yoco.apiUrl,
    });
    shop = await createMerchant(t, { name: 'Kasi Coffee', paymentFeeBps: 250, autoTopup: true });
    merchantSite = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><h1 data-testid="landing">${req.url}</h1>`));
    await new Promise<void>((r) => merchantSite.listen(0, r));
    site = `http://localhost:${(merchantSite.address() as AddressInfo).port}`;
    await op(t, `mutation { updateMerchant(id: "${shop.id}", input: { addRedirectDomains: ["localhost"] }) { merchant { id } } }`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    context = await browser.newContext({ javaScriptEnabled: false });
    context.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => merchantSite?.close(r));
    await t?.close();
    await yoco?.close();
  });

  it('Pay → Yoco\'s page → paid → back on zarpay\'s page with the voucher, captured by the signed webhook', async () => {
    const p = await newPayment(t, shop, { intent_type: 'purchase', amount: 12_345 });
    const page = await context.newPage();
    await page.goto(t.url + pathOf(p.payment_url));
    await page.getByTestId('pay').click();
    await page.getByTestId('yoco-pay').waitFor({ timeout: 15_000 });
    expect(page.url()).toMatch(new RegExp(`^${yoco.apiUrl.replace('/api', '')}/checkout/ch_`));
    await page.getByTestId('yoco-pay').click();
    const voucher = page.getByTestId('voucher-code');
    await voucher.waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${t.url}/pay/${p.payment_id}`);
    const paid = (await getPayment(t, shop, p.payment_id)).body.data;
    expect(paid).toMatchObject({ status: 'captured', latest_attempt: { provider: 'yoco' } });
    expect(await voucher.textContent()).toBe(paid.voucher_code);
    expect(yoco.deliveries).toEqual(expect.arrayContaining([expect.objectContaining({ checkoutId: paid.latest_attempt.provider_ref, status: 200 })]));
    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('Cancel on Yoco\'s page → back on zarpay\'s page, which offers the checkout again; cancel there → the merchant\'s cancel_url', async () => {
    const p = await newPayment(t, shop, { cancel_url: `${site}/cancelled` });
    const page = await context.newPage();
    await page.goto(t.url + pathOf(p.payment_url));
    await page.getByTestId('pay').click();
    await page.getByTestId('yoco-cancel').waitFor({ timeout: 15_000 });
    await page.getByTestId('yoco-cancel').click();
    await page.getByTestId('checkout-link').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('payment-status').getAttribute('data-status')).toBe('awaiting_webhook');
    await page.getByTestId('cancel').click();
    await page.getByTestId('landing').waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${site}/cancelled`);
    expect((await getPayment(t, shop, p.payment_id)).body.data.status).toBe('cancelled');
    expect(cspViolations).toEqual([]);
    await page.close();
  });
});
