import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, expectLedgerOk, op, type TestMerchant } from './support/client.ts';
import { getPayment, newPayment, pathOf } from './support/payments.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe.skipIf(!existsSync(CHROMIUM))(`the hosted payment page in headless Chromium (needs ${CHROMIUM}; CI installs it)`, () => {
  let t: TestApp;
  let shop: TestMerchant;
  let browser: Browser;
  let context: BrowserContext;
  let merchantSite: Server;
  let site: string;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
    shop = await createMerchant(t, { name: 'Kasi Coffee & Co', paymentFeeBps: 250, autoTopup: true });
    // The merchant's own site, where allow-listed redirects land.
    merchantSite = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>merchant</title><h1 data-testid="landing">${req.url}</h1>`);
    });
    await new Promise<void>((r) => merchantSite.listen(0, r));
    site = `http://localhost:${(merchantSite.address() as AddressInfo).port}`;
    await op(t, `mutation { updateMerchant(id: "${shop.id}", input: { addRedirectDomains: ["localhost"] }) { merchant { id } } }`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    // No JavaScript at all: the page must work with plain forms and meta refresh.
    context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true });
    context.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => merchantSite?.close(r));
    await t?.close();
  });

  const open = async (paymentUrl: string) => {
    const page = await context.newPage();
    await page.goto(t.url + pathOf(paymentUrl));
    return page;
  };

  it('purchase: shows merchant and amount, pay → processing → captured with a voucher code', async () => {
    const p = await newPayment(t, shop, { intent_type: 'purchase', amount: 12_345, success_url: `${site}/thanks` });
    const page = await open(p.payment_url);
    expect(await page.getByTestId('merchant-name').textContent()).toBe('Kasi Coffee & Co');
    expect(await page.getByTestId('amount').textContent()).toBe('R 123.45');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId('pay').click();
    const voucher = page.getByTestId('voucher-code');
    await voucher.waitFor({ timeout: 15_000 });
    expect(await voucher.textContent()).toMatch(/^\d{4}-\d{4}-\d{4}-\d{4}$/);
    expect(await page.getByTestId('payment-status').getAttribute('data-status')).toBe('captured');
    expect(page.url()).toBe(`${t.url}/pay/${p.payment_id}`);
    const status = (await getPayment(t, shop, p.payment_id)).body.data;
    expect(status).toMatchObject({ status: 'captured', fee_cents: 309, net_amount_cents: 12_036 });
    await page.close();
    await expectLedgerOk(t);
  });

  it('purchase_and_redeem: pay → redirected to the allow-listed success_url', async () => {
    const p = await newPayment(t, shop, { success_url: `${site}/thanks?order=42` });
    const page = await open(p.payment_url);
    await page.getByTestId('pay').click();
    await page.waitForURL(`${site}/thanks?order=42`, { timeout: 15_000 });
    expect(await page.getByTestId('landing').textContent()).toBe('/thanks?order=42');
    expect((await getPayment(t, shop, p.payment_id)).body.data.status).toBe('captured');
    await page.close();
  });

  it('purchase_and_redeem to a domain that is not allow-listed: stays and shows the result', async () => {
    const p = await newPayment(t, shop, { success_url: 'https://not-allowed.example/thanks' });
    const page = await open(p.payment_url);
    await page.getByTestId('pay').click();
    const status = page.locator('[data-testid="payment-status"][data-status="captured"]');
    await status.waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${t.url}/pay/${p.payment_id}`);
    await page.close();
  });

  it('cancel → redirected to the allow-listed cancel_url', async () => {
    const p = await newPayment(t, shop, { cancel_url: `${site}/cancelled` });
    const page = await open(p.payment_url);
    await page.getByTestId('cancel').click();
    await page.waitForURL(`${site}/cancelled`, { timeout: 15_000 });
    expect((await getPayment(t, shop, p.payment_id)).body.data.status).toBe('cancelled');
    await page.close();
  });

  it('cancel without a cancel_url shows the cancelled result', async () => {
    const p = await newPayment(t, shop);
    const page = await open(p.payment_url);
    await page.getByTestId('cancel').click();
    await page.locator('[data-testid="payment-status"][data-status="cancelled"]').waitFor({ timeout: 15_000 });
    await page.close();
  });

  it('decline → failed; a failure_url on another domain is not followed', async () => {
    const p = await newPayment(t, shop, { failure_url: 'http://127.0.0.1:9/failed' });
    const page = await open(p.payment_url);
    await page.getByTestId('decline').click();
    await page.locator('[data-testid="payment-status"][data-status="failed"]').waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${t.url}/pay/${p.payment_id}`);
    expect((await getPayment(t, shop, p.payment_id)).body.data.latest_attempt.status).toBe('failed');
    await page.close();
  });

  it('decline → redirected to the allow-listed failure_url', async () => {
    const p = await newPayment(t, shop, { failure_url: `${site}/failed` });
    const page = await open(p.payment_url);
    await page.getByTestId('decline').click();
    await page.waitForURL(`${site}/failed`, { timeout: 15_000 });
    await page.close();
  });

  it('raised no Content-Security-Policy violation on any page', () => {
    expect(cspViolations).toEqual([]);
  });
});
