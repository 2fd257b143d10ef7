import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, op } from './support/client.ts';
import { CHROMIUM, hasChromium, lighthouseOnPhone } from './support/lighthouse.ts';
import { newPayment, press } from './support/payments.ts';

/**
 * Lighthouse (the npm package, driving Debian's Chromium: nothing downloads a browser) audits
 * the hosted payment page a shopper sees first and after a decline. Accessibility and best
 * practices must score at least 95; the scores are printed on every run.
 */
describe.skipIf(!hasChromium)(`Lighthouse on the hosted payment page (needs ${CHROMIUM}; CI installs it)`, () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof lighthouseOnPhone>>;

  beforeAll(async () => {
    t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
    browser = await lighthouseOnPhone();
  });
  afterAll(async () => {
    browser?.close();
    await t?.close();
  });

  const audit = (path: string, label: string) => browser.audit(`${t.url}${path}`, label);

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
