import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, expectLedgerOk, http, type TestMerchant } from './support/client.ts';
import { freePort } from './support/processes.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe.skipIf(!existsSync(CHROMIUM))(`a payment link in headless Chromium (needs ${CHROMIUM}; CI installs it)`, () => {
  let t: TestApp;
  let shop: TestMerchant;
  let browser: Browser;

  beforeAll(async () => {
    // The link's page answers 303 to the payment's payment_url: the public address must be this server's.
    const port = await freePort();
    t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50', PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    shop = await createMerchant(t, { name: 'Spaza Lerato', autoTopup: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('an open-amount link on a phone, without JavaScript: type R 150,75, pay through the sandbox to captured', async () => {
    const link = (await http(t, 'POST', '/api/v1/payment-links', { key: shop.key, body: { description: 'Airtime top-up' } })).body.data;
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(link.url);
    expect(await page.getByTestId('merchant-name').textContent()).toBe('Spaza Lerato');
    expect(await page.getByTestId('description').textContent()).toBe('Airtime top-up');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId('link-amount').fill('R 150,75');
    await page.getByTestId('pay').click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    expect(await page.getByTestId('amount').textContent()).toBe('R 150.75');
    await page.getByTestId('pay').click();
    await page.locator('[data-testid="payment-status"][data-status="captured"]').waitFor({ timeout: 15_000 });
    const paymentId = page.url().split('/').pop()!;
    const payment = (await http(t, 'GET', `/api/v1/payments/${paymentId}`, { key: shop.key })).body.data;
    expect(payment).toMatchObject({ status: 'captured', amount: 15_075, payment_link_id: link.link_id });
    expect((await http(t, 'GET', `/api/v1/payment-links/${link.link_id}`, { key: shop.key })).body.data).toMatchObject({ payments_count: 1, captured_cents: 15_075 });
    await context.close();
    await expectLedgerOk(t);
  }, 90_000);
});
