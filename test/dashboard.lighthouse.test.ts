import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, op } from './support/client.ts';
import { CHROMIUM, hasChromium, lighthouseOnPhone } from './support/lighthouse.ts';

/**
 * Lighthouse (the npm package, driving Debian's Chromium: nothing downloads a browser) audits
 * the merchant dashboard's sign-in page and its invite page on a phone. Accessibility and best
 * practices must score at least 95 (CONTRACT §10); the scores are printed on every run.
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

  const audit = (path: string, label: string) => browser.audit(`${t.url}${path}`, label);

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
});
