import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../dashboard/src/i18n.ts';
import { englishWords, wordsOnScreen } from './support/dashboard-browser.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { newPayment } from './support/payments.ts';

/**
 * The dashboard on a phone (issue 33, "Phone"): at 390×844 no screen scrolls sideways, on
 * Statements the Amount and Balance columns are on screen, and no amount breaks across lines.
 * Every screen of the menu is visited (so a new one is checked without changing this test), with
 * a payment, a payout, refunds, deliveries and statement lines long enough to push a layout; then
 * Balance and Payments again in isiZulu. And in isiZulu every screen (Payouts with its New payout
 * form for a typed account and its Save a payee form), a payment asking to refund and a payout:
 * none of the dashboard's English is left on any of them.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const WIDTH = 390;
const HEIGHT = 844;

describe.skipIf(!existsSync(CHROMIUM))(`the dashboard on a 390×844 phone (needs ${CHROMIUM})`, () => {
  let t: TestApp;
  let shop: TestMerchant;
  let browser: Browser;
  let paymentId = '';

  beforeAll(async () => {
    t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
    shop = await createMerchant(t, { name: 'Umlazi Hardware & Building Supplies (Pty) Ltd', webhookUrl: 'http://localhost:9/zarpay-hook' });
    // Statement lines: the operator's top-ups (captured payments reach the ledger at settlement).
    for (const cents of [123_456_78, 1_180_16, 99_00]) await credit(t, shop.id, cents);
    // Amounts with thousands (R 1 180.16), long words and references: what pushes a narrow layout.
    for (const [i, amount] of [118_016, 299_999, 5_500].entries()) {
      const p = await newPayment(t, shop, {
        amount,
        merchant_order_id: `INV-2026-11-${String(i + 1).padStart(6, '0')}-UMLAZI`,
        description: 'Cement, 25 × 50 kg bags, delivered to 14 Mangosuthu Highway',
        customer_info: { email: 'nomvula.dlamini-mthembu@example.co.za', phone: '+27 82 555 0101' },
      });
      await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id: p.payment_id });
      if (i === 0) paymentId = p.payment_id;
    }
    const refund = await http(t, 'POST', `/api/v1/payments/${paymentId}/refunds`, { key: shop.key, body: { amount_cents: 10_050, reason: 'Two bags were split on delivery' } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const payout = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000_000, { merchant_reference: 'SUPPLIER-PPC-CEMENT-2026-11' }) });
    expect(payout.status, JSON.stringify(payout.body)).toBe(201);
    // A team larger than a page of People (25).
    for (let i = 1; i <= 26; i++) {
      await op(t, 'mutation($m: UUID, $e: String!) { invitePerson(merchantId: $m, email: $e, role: VIEWER) { person { id } } }', { m: shop.id, e: `staff${String(i).padStart(2, '0')}@umlazi.example` });
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const phone = async (): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    // A step that never comes fails by its own name, well before the test's time is up.
    context.setDefaultTimeout(10_000);
    await context.route('**/*', (route) => (route.request().url().startsWith(t.url) || /^(data|blob):/.test(route.request().url()) ? route.continue() : route.abort()));
    return context;
  };

  const invite = async (email: string) => {
    const d = await op(t, 'mutation($m: UUID, $e: String!) { invitePerson(merchantId: $m, email: $e, role: OWNER) { inviteUrl } }', { m: shop.id, e: email });
    const u = new URL(d.invitePerson.inviteUrl);
    return `${t.url}${u.pathname}${u.hash}`;
  };

  /** Wider than the phone? And every amount (`R 1 180.16`) on one line? */
  async function expectFits(page: Page, screen: string) {
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${screen}: the page is ${width} px wide`).toBeLessThanOrEqual(WIDTH);
    const broken = await page.evaluate(() => {
      const found: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of (node.textContent ?? '').matchAll(/−?R[\u00a0 ]\d[\d\u00a0 ]*[.,]\d\d/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
          if (lines.size > 1) found.push(m[0]);
        }
      }
      return found;
    });
    expect(broken, `${screen}: amounts broken across lines`).toEqual([]);
  }

  /** Through the menu, folded behind its button on a phone. */
  const go = async (page: Page, name: string) => {
    await openMenu(page, true);
    await menuLinks(page).getByRole('link', { name, exact: true }).click();
    await openMenu(page, false);
    await page.getByRole('heading', { level: 1 }).waitFor();
  };
  // The menu's own navigation (named in the dashboard's language), not a list's pager.
  const menuLinks = (page: Page) => page.locator('#menu').getByRole('navigation');
  /** Opens or closes the phone's menu (the screen it leads to closes it, unless it is the one shown). */
  const openMenu = async (page: Page, open: boolean) => {
    const menu = page.getByTestId('menu');
    if ((await menu.getAttribute('aria-expanded')) !== String(open)) await menu.click();
  };

  it('signed out: sign-in, forgotten password and the invite fit', async () => {
    const context = await phone();
    const page = await context.newPage();
    for (const path of ['/dashboard/login', '/dashboard/forgot']) {
      await page.goto(`${t.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectFits(page, path);
    }
    await page.goto(await invite('new.owner@umlazi.example'));
    await page.getByTestId('set-password').waitFor();
    await expectFits(page, 'the invite');
    await context.close();
  });

  it('signed in: every screen of the menu, a payment and a payout fit; Statements shows Amount and Balance', async () => {
    const context = await phone();
    const page = await context.newPage();
    await page.goto(await invite('owner@umlazi.example'));
    await page.getByTestId('set-password').fill('a password of some length');
    await page.getByTestId('set-password-submit').click();
    await page.getByTestId('balance-available').waitFor({ timeout: 15_000 });
    await expectFits(page, 'Balance');

    await openMenu(page, true);
    const screens = await menuLinks(page).getByRole('link').allTextContents();
    await openMenu(page, false);
    expect(screens.length).toBeGreaterThanOrEqual(9);
    for (const name of screens) {
      await go(page, name);
      await expectFits(page, name);
    }

    // The open menu fits too.
    await openMenu(page, true);
    await expectFits(page, 'the open menu');
    await openMenu(page, false);

    // The merchant's refunds, each with its payment's order and a way there.
    await go(page, 'Refunds');
    const refund = page.getByTestId('refund-row');
    await refund.first().waitFor();
    expect(await refund.count()).toBe(1);
    expect(await refund.first().textContent()).toContain('R\u00a0100.50');
    expect(await refund.first().getByRole('link').getAttribute('href')).toBe(`/dashboard/payments/${paymentId}`);

    // People page too: the 26 invited, this owner, and whoever else was invited.
    const everyone = (await op(t, 'query($m: UUID) { people(merchantId: $m) { id } }', { m: shop.id })).people.length;
    expect(everyone).toBeGreaterThan(26);
    await go(page, 'People');
    const people = page.locator('ul.people > li');
    await people.first().waitFor();
    expect(await people.count()).toBe(25);
    const pager = page.getByRole('navigation', { name: 'Pages of People' });
    await pager.getByTestId('list-next').click();
    await pager.getByText('Page 2').waitFor();
    // The first page stays on screen until the second has come.
    await expect.poll(() => people.count()).toBe(everyone - 25);
    expect(await pager.getByTestId('list-next').isDisabled()).toBe(true);
    await expectFits(page, 'People, second page');

    await go(page, 'Payments');
    await page.getByTestId('payment-row').first().waitFor();
    await page.goto(`${t.url}/dashboard/payments/${paymentId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectFits(page, 'a payment');

    await go(page, 'Payouts');
    await page.getByTestId('payout-row').first().getByRole('link').click();
    await page.waitForURL('**/dashboard/payouts/*');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectFits(page, 'a payout');

    await go(page, 'Statements');
    const amounts = page.locator('td[data-label="Amount"]');
    await amounts.first().waitFor();
    await expectFits(page, 'Statements');
    for (const column of ['Amount', 'Balance']) {
      const cells = page.locator(`td[data-label="${column}"]`);
      expect(await cells.count(), column).toBeGreaterThanOrEqual(3);
      for (const box of await cells.evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().toJSON() as DOMRect))) {
        expect(box.left, `${column} starts on screen`).toBeGreaterThanOrEqual(0);
        expect(box.right, `${column} ends on screen`).toBeLessThanOrEqual(WIDTH);
      }
      // And the amount itself, not only its cell.
      expect(await cells.first().textContent()).toMatch(/R\u00a0/);
    }

    // In isiZulu (CONTRACT §11 `language`) Balance and Payments speak it, and their longer words still fit.
    await openMenu(page, true);
    await page.getByTestId('language').selectOption('zu');
    await go(page, 'Ibhalansi');
    await page.getByRole('heading', { level: 1, name: 'Ibhalansi' }).waitFor();
    expect(await page.getByTestId('balance-breakdown').textContent()).toContain('Izinkokhelo ezingenayo');
    await expectFits(page, 'Balance in isiZulu');
    await go(page, 'Izinkokhelo');
    await page.getByText('Izinkokhelo ezingu-3, ezintsha kuqala').waitFor();
    expect(await page.getByTestId('payment-row').first().textContent()).toContain('kwamukelwe');
    await expectFits(page, 'Payments in isiZulu');
    await context.close();
  }, 90_000);

  it('in isiZulu every screen speaks it: none of the dashboard\'s English on any screen, a payment with its refund question, a payout', async () => {
    const context = await phone();
    const page = await context.newPage();
    await page.goto(await invite('zulu@umlazi.example'));
    await page.getByTestId('set-password').fill('a password of some length');
    await page.getByTestId('set-password-submit').click();
    await page.getByTestId('balance-available').waitFor({ timeout: 15_000 });
    await openMenu(page, true);
    await page.getByTestId('language').selectOption('zu');
    await openMenu(page, false);
    await page.getByRole('heading', { level: 1, name: MESSAGES.zu['nav.balance'] }).waitFor();

    const english = englishWords('zu');
    expect(english.length).toBeGreaterThan(200);
    const left: Record<string, string[]> = {};
    const check = async (screen: string) => {
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
      const found = await wordsOnScreen(page, english);
      if (found.length > 0) left[screen] = found;
    };

    await openMenu(page, true);
    const screens = await menuLinks(page).getByRole('link').evaluateAll((links) => links.map((a) => ({ name: a.textContent ?? '', href: a.getAttribute('href') ?? '' })));
    await openMenu(page, false);
    expect(screens.length).toBeGreaterThanOrEqual(10);
    for (const { name, href } of screens) {
      await go(page, name);
      await check(href);
    }
    // Who did what is in isiZulu too (the service writes it in the reader's language), and the walk read it.
    await go(page, MESSAGES.zu['nav.people']);
    await page.getByTestId('audit-entry').first().waitFor();
    expect(await page.getByTestId('audit-entry').allTextContents()).toContainEqual(expect.stringContaining('zulu@umlazi.example ushintshe ulimi lwakhe'));
    // A secret shown once, and the form that invites.
    await go(page, MESSAGES.zu['nav.keys']);
    await page.getByRole('button', { name: MESSAGES.zu['keys.issue'] }).click();
    await page.locator('.once').waitFor();
    await check('a new key');

    await page.goto(`${t.url}/dashboard/payments/${paymentId}`);
    await page.getByRole('heading', { level: 1, name: MESSAGES.zu['payment.title'] }).waitFor();
    await page.getByTestId('refund-amount').fill('1');
    await page.getByTestId('refund-submit').click();
    await page.getByTestId('refund-confirm').waitFor();
    await check('a payment, asked to refund');
    // Its times day first, as South Africa writes them (a browser without isiZulu's formats falls back to en-ZA's, not en-US's).
    expect(await page.locator('dl.details dd').filter({ hasText: 'SAST' }).first().textContent()).toMatch(/^\d{1,2}\s\S+\s\d{4},?\s\d{2}:\d{2}\sSAST$/);

    await go(page, MESSAGES.zu['nav.payouts']);
    await page.getByTestId('payout-row').first().getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: MESSAGES.zu['payout.title'] }).waitFor();
    await check('a payout');

    expect(left, 'English left on screens in isiZulu').toEqual({});
    await context.close();
  }, 90_000);
});
