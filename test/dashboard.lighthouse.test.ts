import { existsSync } from 'node:fs';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, op } from './support/client.ts';

/**
 * Lighthouse (the npm package, driving Debian's Chromium: nothing downloads a browser) audits
 * the merchant dashboard's sign-in page and its invite page on a phone. Accessibility and best
 * practices must score at least 95 (CONTRACT §10); the scores are printed on every run.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))(`Lighthouse on the merchant dashboard (needs ${CHROMIUM}; CI installs it)`, () => {
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
