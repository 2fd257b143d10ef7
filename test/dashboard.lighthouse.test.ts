import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, op, payoutBody } from './support/client.ts';
import { newPayment } from './support/payments.ts';
import { type AuditOptions, CHROMIUM, hasChromium, lighthouseOnPhone } from './support/lighthouse.ts';

/**
 * Lighthouse (the npm package, driving Debian's Chromium: nothing downloads a browser) audits
 * the merchant dashboard's sign-in page and its invite page on a phone, and, signed in once,
 * Balance, Payments, a payment, Payouts and Statements. Accessibility and best practices must
 * score at least 95 (CONTRACT §10), and signed in no text goes out uncompressed
 * (`uses-text-compression`); the scores, and signed in the performance, are printed on every run.
 */
describe.skipIf(!hasChromium)(`Lighthouse on the merchant dashboard (needs ${CHROMIUM}; CI installs it)`, () => {
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

  const audit = (path: string, label: string, options?: AuditOptions) => browser.audit(`${t.url}${path}`, label, options);

  it('scores accessibility and best practices of at least 95 on sign-in and on the invite page', async () => {
    const shop = await createMerchant(t, { name: 'Kasi Coffee & Co' });
    const d = await op(t, 'mutation($m: UUID) { invitePerson(merchantId: $m, email: "lh@kasi.example", role: OWNER) { inviteUrl } }', { m: shop.id });
    const u = new URL(d.invitePerson.inviteUrl);
    for (const [path, label] of [['/dashboard/login', 'dashboard sign-in'], [`${u.pathname}${u.hash}`, 'dashboard invite']] as const) {
      const r = await audit(path, label);
      expect(r.accessibility, r.failing.join(', ')).toBeGreaterThanOrEqual(95);
      expect(r.bestPractices, r.failing.join(', ')).toBeGreaterThanOrEqual(95);
    }
  }, 180_000);

  it('scores accessibility and best practices of at least 95 signed in: Balance, Payments, a payment, Payouts, Statements (and prints performance)', async () => {
    const shop = await createMerchant(t, { name: 'Umlazi Hardware' });
    await credit(t, shop.id, 250_000_00);
    let paymentId = '';
    for (const [i, amount] of [118_016, 25_000, 7_550].entries()) {
      const p = await newPayment(t, shop, { amount, merchant_order_id: `LH-${i + 1}`, description: 'Cement, 25 bags', customer_info: { email: 'nomvula@example.co.za' } });
      await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id: p.payment_id });
      paymentId ||= p.payment_id;
    }
    expect((await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(100_000, { merchant_reference: 'LH-PAYOUT' }) })).status).toBe(201);
    const d = await op(t, 'mutation($m: UUID) { invitePerson(merchantId: $m, email: "owner@umlazi.example", role: OWNER) { inviteUrl } }', { m: shop.id });
    const u = new URL(d.invitePerson.inviteUrl);
    // One sign-in for every audit: the browser keeps the session cookie (Lighthouse clears caches, not cookies).
    await browser.signIn(async (page) => {
      await page.goto(`${t.url}${u.pathname}${u.hash}`);
      await page.getByTestId('set-password').fill('a password of some length');
      await page.getByTestId('set-password-submit').click();
      await page.getByTestId('balance-available').waitFor({ timeout: 15_000 });
    });
    const scores: string[] = [];
    for (const [path, label] of [
      ['/dashboard', 'dashboard Balance'],
      ['/dashboard/payments', 'dashboard Payments'],
      [`/dashboard/payments/${paymentId}`, 'dashboard a payment'],
      ['/dashboard/payouts', 'dashboard Payouts'],
      ['/dashboard/statements', 'dashboard Statements'],
    ] as const) {
      const r = await audit(path, label, { performance: true });
      // Signed in, not the sign-in page it would fall back to.
      expect(r.finalPath, label).toBe(path);
      expect(r.accessibility, `${label}: ${r.failing.join(', ')}`).toBeGreaterThanOrEqual(95);
      expect(r.bestPractices, `${label}: ${r.failing.join(', ')}`).toBeGreaterThanOrEqual(95);
      // The script and style sheet go out compressed (brotli, made at build time).
      expect(r.failing, label).not.toContain('uses-text-compression');
      scores.push(`${label} ${r.performance}`);
    }
    console.log(`Lighthouse performance, signed in: ${scores.join(', ')}`);
  }, 240_000);
});
