import { existsSync } from 'node:fs';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, op } from './support/client.ts';
import { newPayment, press } from './support/payments.ts';

/**
 * Lighthouse (the npm package, driving Debian's Chromium: nothing downloads a browser) audits
 * the hosted payment page a shopper sees first and after a decline. Accessibility and best
 * practices must score at least 95; the scores are printed on every run.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))(`Lighthouse on the hosted payment page (needs ${CHROMIUM}; CI installs it)`, () => {
  let t: TestApp;
  let chrome: LaunchedChrome;

  beforeAll(async () => {
    t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
    chrome = await launch({
      chromePath: CHROMIUM,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    chrome?.kill();
    await t?.close();
  });

  async function audit(path: string, label: string) {
    const result = await lighthouse(
      `${t.url}${path}`,
      { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: ['accessibility', 'best-practices'], formFactor: 'mobile', screenEmulation: { mobile: true, width: 390, height: 844, deviceScaleFactor: 2, disabled: false } },
    );
    const lhr = result!.lhr;
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
      .map((a) => a.id);
    console.log(`Lighthouse ${label}: accessibility ${score('accessibility')}, best practices ${score('best-practices')}${failing.length ? ` (below full marks: ${failing.join(', ')})` : ''}`);
    return { accessibility: score('accessibility'), bestPractices: score('best-practices'), failing };
  }

  it('scores accessibility and best practices of at least 95 on the page to pay, and after a decline', async () => {
    const shop = await createMerchant(t, { name: 'Kasi Coffee & Co' });
    await op(t, `mutation($id: UUID!) { updateMerchant(id: $id, input: { supportContact: "help@kasi.example.co.za", addRedirectDomains: ["kasi.example.co.za"] }) { merchant { id } } }`, { id: shop.id });
    const open = await newPayment(t, shop, { intent_type: 'purchase', description: 'Two flat whites and a vetkoek' });
    const toPay = await audit(`/pay/${open.payment_id}`, 'page to pay');
    expect(toPay.accessibility, toPay.failing.join(', ')).toBeGreaterThanOrEqual(95);
    expect(toPay.bestPractices, toPay.failing.join(', ')).toBeGreaterThanOrEqual(95);

    const declined = await newPayment(t, shop, { intent_type: 'purchase' });
    await press(t, declined.payment_id, 'decline');
    const afterDecline = await audit(`/pay/${declined.payment_id}?lang=zu`, 'declined (isiZulu)');
    expect(afterDecline.accessibility, afterDecline.failing.join(', ')).toBeGreaterThanOrEqual(95);
    expect(afterDecline.bestPractices, afterDecline.failing.join(', ')).toBeGreaterThanOrEqual(95);
  }, 180_000);
});
