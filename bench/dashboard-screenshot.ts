/**
 * Takes docs/dashboard.png: the signed-in dashboard's Links screen with some links in it, in
 * headless Chromium at 1280×800. Not part of CI; run it by hand after a visible dashboard change:
 *
 *     npx tsx bench/dashboard-screenshot.ts            # writes docs/dashboard.png
 *
 * It starts the service as `npm start` does, on the embedded database in a fresh data directory,
 * makes a merchant with links (one paid through its page by a customer), signs an owner in and
 * photographs the screen. CHROMIUM_PATH names the browser
 * (default /usr/bin/chromium).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, startService } from '../test/support/processes.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = join(ROOT, 'docs', 'dashboard.png');
const OPERATOR_TOKEN = 'screenshot-operator-token-0123456789abcdef';

async function call(url: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json = (await res.json()) as any;
  if (!res.ok || json.errors) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return { json, res };
}

const dataDir = mkdtempSync(join(tmpdir(), 'zarpay-screenshot-'));
const service = await startService({ DATA_DIR: dataDir, OPERATOR_TOKEN, SANDBOX_CONFIRM_DELAY_MS: '50' });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
try {
  const url = service.url;
  const op = async (query: string, variables: Record<string, unknown> = {}) => (await call(url, '/graphql', { query, variables }, { authorization: `Bearer ${OPERATOR_TOKEN}` })).json.data;
  const shop = (await op('mutation($i: MerchantInput!) { createMerchant(input: $i) { merchant { id } fullKey } }', { i: { name: 'Spaza Lerato', autoTopup: true } })).createMerchant;
  const links: string[] = [];
  for (const body of [
    { description: 'Braai pack for four', amount_cents: 35_000 },
    { description: 'Tip jar' },
    { description: 'Catering deposit, 12 December', amount_cents: 150_000, single_use: true },
    { description: 'Airtime R 100', amount_cents: 10_000 },
  ]) {
    links.push((await call(url, '/api/v1/payment-links', body, { 'x-api-key': shop.fullKey })).json.data.url);
  }
  // A customer pays the first link through its page and the hosted page, so the list has takings.
  const customer = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const pay = await customer.newPage();
  await pay.goto(links[0]!);
  await pay.getByTestId('pay').click();
  await pay.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
  await pay.getByTestId('pay').click();
  await pay.locator('[data-testid="payment-status"][data-status="captured"]').waitFor({ timeout: 30_000 });
  await customer.close();

  const invite = (await op('mutation($m: UUID, $e: String!) { invitePerson(merchantId: $m, email: $e, role: OWNER) { inviteUrl } }', { m: shop.merchant.id, e: 'lerato@spaza.example' })).invitePerson;
  const { res } = await call(url, '/dashboard/invite', { token: new URL(invite.inviteUrl).hash.slice(1), password: 'a password of some length' }, {});
  const cookies = res.headers.getSetCookie().map((c) => {
    const pair = c.split(';')[0]!;
    return { name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), url };
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies(cookies);
  const page = await context.newPage();
  await page.goto(`${url}/dashboard/links`);
  const paid = page.getByTestId('link-row').filter({ hasText: 'Braai pack for four' });
  await paid.getByTestId('link-payments').filter({ hasText: '1' }).waitFor({ timeout: 30_000 });
  // The new-link form folded away, so the list shows.
  await page.locator('details.panel[open] > summary').first().click();
  await page.screenshot({ path: OUT });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  service.child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
