import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, http, op } from './support/client.ts';
import { CHROMIUM, hasChromium } from './support/lighthouse.ts';
import { freePort } from './support/processes.ts';

/**
 * Lighthouse (the npm package, driving Debian's Chromium) on the Links screen signed in, on a
 * phone, with links in its list: accessibility and best practices at least 95 (CONTRACT §10);
 * performance is printed, not asserted (a shared machine's timings say little). The session is
 * an owner's, set as the browser's cookies before Lighthouse opens the page (its storage reset is
 * off, so it keeps them).
 */
describe.skipIf(!hasChromium)(`Lighthouse on the dashboard's Links screen, signed in (needs ${CHROMIUM}; CI installs it)`, () => {
  let t: TestApp;
  let context: BrowserContext;
  let port: number;
  const profile = mkdtempSync(join(tmpdir(), 'zarpay-lh-links-'));

  beforeAll(async () => {
    t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
    port = await freePort();
    // A browser Lighthouse can reach on a port, whose own profile carries the session cookies.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--remote-debugging-port=${port}`],
    });
  });
  afterAll(async () => {
    await context?.close();
    await t?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('scores accessibility and best practices of at least 95 on the Links screen with links in it', async () => {
    const shop = await createMerchant(t, { name: 'Kasi Coffee & Co' });
    for (const body of [{ description: 'Coffee beans, 1 kg', amount_cents: 28500 }, { description: 'Tip jar' }, { description: 'Catering deposit', amount_cents: 150000, single_use: true }]) {
      const made = await http(t, 'POST', '/api/v1/payment-links', { key: shop.key, body });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const d = await op(t, 'mutation($m: UUID) { invitePerson(merchantId: $m, email: "lh-links@kasi.example", role: OWNER) { inviteUrl } }', { m: shop.id });
    const token = new URL(d.invitePerson.inviteUrl).hash.slice(1);
    const res = await http(t, 'POST', '/dashboard/invite', { body: { token, password: 'a password of some length' } });
    expect(res.status).toBe(200);
    const cookies = res.headers.getSetCookie().map((c) => {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      return { name: pair!.slice(0, at), value: pair!.slice(at + 1), url: t.url };
    });
    await context.addCookies(cookies);
    // The profile is signed in: the screen shows the links (not the sign-in page) in it.
    const page = await context.newPage();
    await page.goto(`${t.url}/dashboard/links`);
    await page.getByTestId('link-row').first().waitFor();
    expect(await page.getByTestId('link-row').count()).toBe(3);
    await page.close();

    const result = await lighthouse(`${t.url}/dashboard/links`, {
      port,
      logLevel: 'error',
      output: 'json',
      disableStorageReset: true,
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      formFactor: 'mobile',
      screenEmulation: { mobile: true, width: 390, height: 844, deviceScaleFactor: 2, disabled: false },
    });
    const lhr = result!.lhr;
    // Signed in: the screen itself was audited, not the sign-in page it would send a stranger to.
    expect(lhr.finalDisplayedUrl).toBe(`${t.url}/dashboard/links`);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
      .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    console.log(
      `Lighthouse dashboard Links, signed in: performance ${score('performance')}, accessibility ${score('accessibility')}, best practices ${score('best-practices')}` +
        `${failing.length ? ` (below full marks: ${failing.join(', ')})` : ''}`,
    );
    expect(score('accessibility'), failing.join(', ')).toBeGreaterThanOrEqual(95);
    expect(score('best-practices'), failing.join(', ')).toBeGreaterThanOrEqual(95);
    // The script and style sheet go out compressed (brotli, made at build time).
    expect(failing.filter((f) => f.startsWith('uses-text-compression'))).toEqual([]);
  }, 180_000);
});
