import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, http, type TestMerchant } from './support/client.ts';
import { getPayment, newPayment, pathOf } from './support/payments.ts';
import { freePort } from './support/processes.ts';
import { type OzowDouble, ozowSettings, startOzowDouble } from './support/ozow-double.ts';
import { startYocoDouble, type YocoDouble, yocoSettings } from './support/yoco-double.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Instant EFT in a real browser without JavaScript (CONTRACT §11): with card and Ozow both
 * configured the customer picks instant EFT, pays at Ozow's (double's) page, is posted back to
 * zarpay's return address and sees the result; a merchant offering instant EFT alone gets a page
 * that goes straight on.
 */
describe.skipIf(!existsSync(CHROMIUM))(`paying by instant EFT in headless Chromium (needs ${CHROMIUM})`, () => {
  let t: TestApp;
  let ozow: OzowDouble;
  let yoco: YocoDouble;
  let shop: TestMerchant;
  let browser: Browser;
  let context: BrowserContext;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    ozow = await startOzowDouble();
    yoco = await startYocoDouble();
    // Ozow notifies and sends the browser back to PUBLIC_BASE_URL: it must be where the service listens.
    const port = await freePort();
    t = await startApp({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...yocoSettings(yoco), ...ozowSettings(ozow) });
    shop = await createMerchant(t, { name: 'Spaza Online', paymentFeeBps: 250, autoTopup: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    context = await browser.newContext({ javaScriptEnabled: false });
    context.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await ozow?.close();
    await yoco?.close();
  });

  it('picks instant EFT, pays at Ozow, comes back to the voucher; instant EFT alone goes straight on', async () => {
    const p = await newPayment(t, shop, { intent_type: 'purchase', amount: 12_345 });
    const page = await context.newPage();
    await page.goto(`${t.url}${pathOf(p.payment_url)}?lang=af`);
    expect(await page.getByTestId('method-card').isChecked()).toBe(true);
    await page.getByTestId('method-instant-eft').check();
    await page.getByTestId('pay').click();
    await page.getByTestId('ozow-pay').waitFor({ timeout: 20_000 });
    expect(page.url()).toMatch(new RegExp(`^${ozow.apiUrl}/pay/`));
    await page.getByTestId('ozow-pay').click();
    await page.getByTestId('ozow-return').click();
    const voucher = page.getByTestId('voucher-code');
    await voucher.waitFor({ timeout: 20_000 });
    expect(page.url()).toBe(`${t.url}/pay/${p.payment_id}`);
    const paid = (await getPayment(t, shop, p.payment_id)).body.data;
    expect(paid).toMatchObject({ status: 'captured', latest_attempt: { provider: 'ozow', status: 'succeeded' } });
    expect(await voucher.textContent()).toBe(paid.voucher_code);
    // Ozow's notification reached the service (the double posts it before sending the browser back).
    expect(ozow.deliveries).toEqual([{ reference: paid.latest_attempt.provider_ref, status: 200 }]);

    // A merchant that offers instant EFT only: no choice to make.
    const only = await createMerchant(t, { name: 'EFT Only' });
    await http(t, 'PATCH', '/api/v1/merchant', { key: only.key, body: { payment_methods: ['instant_eft'] } });
    const q = await newPayment(t, only);
    await page.goto(t.url + pathOf(q.payment_url));
    expect(await page.getByTestId('method-card').count()).toBe(0);
    expect(await page.getByTestId('payment-method').textContent()).toContain('instant EFT from your bank (Ozow)');
    await page.getByTestId('pay').click();
    await page.getByTestId('ozow-pay').waitFor({ timeout: 20_000 });
    expect(cspViolations).toEqual([]);
    await page.close();
  }, 120_000);
});
