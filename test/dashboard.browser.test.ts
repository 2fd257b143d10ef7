import { existsSync, readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, go } from './support/dashboard-browser.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, op, type TestMerchant } from './support/client.ts';
import { newPayment } from './support/payments.ts';

/**
 * The merchant dashboard in headless Chromium (CONTRACT §10), with every other origin blocked:
 * an owner from the invite link through the webhook URL and a payout, live updates, a viewer
 * whose payout is refused by the API, a cross-site request carrying the cookie that changes
 * nothing, and axe-core on every screen.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe.skipIf(!existsSync(CHROMIUM))(`the merchant dashboard in headless Chromium (needs ${CHROMIUM})`, () => {
  let t: TestApp;
  let shop: TestMerchant;
  let browser: Browser;
  let evil: Server;
  let evilUrl: string;
  const blocked: string[] = [];
  /** The service's request log: the cross-site requests must have reached it, and been refused. */
  const log: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50', LOG_LEVEL: 'info' }, { logStream: new Writable({ write: (chunk, _e, done) => (log.push(...String(chunk).split('\n').filter(Boolean)), done()) }) });
    shop = await createMerchant(t, { name: 'Kasi Coffee & Co', autoTopup: true });
    await credit(t, shop.id, 123_456_78);
    // Another site, whose page tries to act with the visitor's dashboard cookie.
    evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>prize</title><script>
        const target = ${JSON.stringify(t.url)};
        const body = JSON.stringify({ query: 'mutation { updateWebhookUrl(url: "http://attacker.example/hook") { merchant { id } } }' });
        Promise.all([
          fetch(target + '/graphql', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body }),
          fetch(target + '/graphql', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'application/json' }, body }),
        ]).finally(() => { document.title = 'sent'; });
      </script>`);
    });
    await new Promise<void>((r) => evil.listen(0, r));
    evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => evil?.close(r));
    await t?.close();
  });

  async function newContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(t.url) || url.startsWith(evilUrl) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      blocked.push(url);
      return route.abort();
    });
    context.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
    return context;
  }

  const invite = async (email: string, role: 'OWNER' | 'VIEWER', merchantId = shop.id) => {
    const d = await op(t, 'mutation($m: UUID, $e: String!, $r: PersonRole!) { invitePerson(merchantId: $m, email: $e, role: $r) { inviteUrl } }', { m: merchantId, e: email, r: role });
    const u = new URL(d.invitePerson.inviteUrl);
    return `${t.url}${u.pathname}${u.hash}`;
  };

  /** Opens the invite link, sets the password by keyboard alone, and lands on the balance. */
  async function join(context: BrowserContext, email: string, role: 'OWNER' | 'VIEWER', merchantId = shop.id): Promise<Page> {
    const page = await context.newPage();
    await page.goto(await invite(email, role, merchantId));
    await page.getByTestId('set-password').focus();
    await page.keyboard.type('a password of some length');
    await page.keyboard.press('Enter');
    await page.getByTestId('balance-available').waitFor({ timeout: 15_000 });
    return page;
  }


  it('an owner: invite link → password → balance → webhook URL → payout (masked account, live status) → payments live', async () => {
    const context = await newContext();
    const page = await join(context, 'owner@kasi.example', 'OWNER');
    expect(await page.getByTestId('balance-available').textContent()).toBe('R\u00a0123\u00a0456.78');
    await expectAccessible(page, 'balance');

    await go(page, 'Webhooks', 'Webhooks');
    await page.getByTestId('webhook-url').fill('http://localhost:9/zarpay-hook');
    await page.getByTestId('webhook-url-save').click();
    await page.getByText('Saved.').waitFor();
    const merchant = await op(t, 'query($id: UUID!) { merchant(id: $id) { webhookUrl } }', { id: shop.id });
    expect(merchant.merchant.webhookUrl).toBe('http://localhost:9/zarpay-hook');
    await expectAccessible(page, 'webhooks');

    await go(page, 'Payouts', 'Payouts');
    await page.getByText('No payouts yet.').waitFor();
    await expect.poll(() => t.app.services.events.subscriberCount, { timeout: 10_000 }).toBe(1);
    await page.getByText('New payout').click();
    await page.getByTestId('payout-amount').fill('1500.00');
    // The fee and what is available are there before anything is sent.
    expect((await page.getByTestId('payout-cost').textContent())?.replace(/\u00a0/g, ' ')).toMatch(/Available: R 123 456\.78\. Payout fee: R [\d ]+\.\d\d\. Taken from the balance: R 1 5\d\d\.\d\d/);
    await page.getByTestId('payout-to').selectOption('new');
    // The bank comes from the service's list, and with it the universal branch code.
    await page.getByTestId('payout-bank').selectOption({ label: 'First National Bank' });
    expect(await page.getByTestId('payout-bank-branch').textContent()).toContain('250655');
    await page.getByTestId('payout-account').fill('62012345678');
    await page.getByTestId('payout-holder').fill('Thandi Nkosi');
    await page.getByTestId('payout-reference').fill('week-47');
    // A new account from a session needs the password again: a wrong one is refused beside its field, and nothing is made.
    await page.getByTestId('payout-password').fill('not the password');
    await page.getByTestId('payout-create').click();
    expect(await page.getByTestId('error-password').textContent()).toMatch(/^Is not your password/);
    expect((await op(t, 'query($m: UUID) { payouts(merchantId: $m) { totalCount } }', { m: shop.id })).payouts.totalCount).toBe(0);
    await page.getByTestId('payout-password').fill('a password of some length');
    await page.getByTestId('payout-create').click();
    const row = page.getByTestId('payout-row').first();
    await row.waitFor();
    expect(await row.textContent()).toContain('R\u00a01\u00a0500.00');
    expect(await row.textContent()).toContain('****5678');
    expect(await row.textContent()).not.toContain('62012345678');
    expect(await row.textContent()).toContain('pending');
    await expectAccessible(page, 'payouts');
    // The operator approves it: the row changes without a reload (graphql-sse).
    const { payouts } = await op(t, 'query($m: UUID) { payouts(merchantId: $m) { edges { node { id } } } }', { m: shop.id });
    await op(t, 'mutation($id: UUID!) { approvePayout(id: $id) { payout { id } } }', { id: payouts.edges[0].node.id });
    await page.getByTestId('payout-row').filter({ hasText: 'approved' }).waitFor({ timeout: 15_000 });
    // The bank pays it: its page shows the bank's transfer reference.
    await op(t, 'mutation($id: UUID!) { startPayoutTransfer(id: $id) { payout { id } } }', { id: payouts.edges[0].node.id });
    await op(t, 'mutation($id: UUID!) { completePayout(id: $id, externalTransferId: "FNB-778812") { payout { id } } }', { id: payouts.edges[0].node.id });
    await page.getByTestId('payout-row').filter({ hasText: 'completed' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('payout-row').getByRole('link').first().click();
    expect(await page.getByTestId('payout-bank-account').textContent()).toMatch(/\*\*\*\*5678$/);
    expect(await page.getByTestId('payout-transfer-reference').textContent()).toBe('FNB-778812');
    await expectAccessible(page, 'payout detail');

    // The payouts screen's live stream has ended; the payments screen opens its own.
    const streams = () => t.app.services.events.subscriberCount;
    await expect.poll(streams, { timeout: 10_000 }).toBe(0);
    await go(page, 'Payments', 'Payments');
    await page.getByText('No payments yet.').waitFor();
    await expect.poll(streams, { timeout: 10_000 }).toBe(1);
    // A payment is paid: it appears without a reload (graphql-sse).
    const p = await newPayment(t, shop, { amount: 12_345, customer_info: { email: 'thandi@example.co.za' } });
    await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id: p.payment_id });
    await page.getByTestId('payment-row').filter({ hasText: 'captured' }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('payments-table').textContent()).toContain('R\u00a0123.45');
    await expectAccessible(page, 'payments');
    await page.getByTestId('payment-row').getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: 'Payment' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Attempts' }).waitFor();
    expect(await page.getByTestId('payment-customer').textContent()).toBe('thandi@example.co.za');
    await expectAccessible(page, 'payment detail');

    await go(page, 'API keys', 'API keys');
    await page.getByText('Issue a new key').click();
    await page.locator('.once code').waitFor();
    expect(await page.locator('.once code').textContent()).toMatch(/^sec1-tst-/);
    await expectAccessible(page, 'API keys');

    await go(page, 'People', 'People');
    await page.locator('main').getByText('owner@kasi.example').first().waitFor();
    await expectAccessible(page, 'people');

    // On a phone, signing out is in the folded menu too.
    await page.getByTestId('menu').click();
    await page.getByTestId('signout').click();
    await page.getByTestId('login-email').waitFor();
    await expectAccessible(page, 'sign-in');
    await page.getByTestId('login-email').fill('owner@kasi.example');
    await page.getByTestId('login-password').fill('a password of some length');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('balance-available').waitFor();
    await context.close();
    // Eight screens, each through the phone's menu: past the default 30 s on a busy machine.
  }, 90_000);

  it('an owner saves a payee after re-entering the password (a wrong one is refused beside its field), then pays it', async () => {
    const context = await newContext();
    const page = await join(context, 'payee-owner@kasi.example', 'OWNER');
    await go(page, 'Payouts', 'Payouts');
    await page.getByText('Save a payee').click();
    await page.getByTestId('payee-name').fill('Spaza supplier');
    await page.getByTestId('payee-bank').selectOption({ label: 'Capitec Bank' });
    await page.getByTestId('payee-account').fill('1002003004');
    await page.getByTestId('payee-holder').fill('Sipho Dlamini');
    await page.getByTestId('payee-password').fill('not the password');
    await page.getByTestId('payee-create').click();
    // The refusal is in words beside the password, not an internal path.
    const wrong = page.getByTestId('error-password');
    await wrong.waitFor();
    expect(await wrong.textContent()).toMatch(/^Is not your password/);
    expect(await page.getByTestId('payee-row').count()).toBe(0);
    await page.getByTestId('payee-password').fill('a password of some length');
    await page.getByTestId('payee-create').click();
    await page.getByTestId('payee-row').filter({ hasText: 'Spaza supplier' }).waitFor();
    expect(await page.getByTestId('payees-table').textContent()).toContain('****3004');
    expect(await page.getByTestId('payees-table').textContent()).not.toContain('1002003004');
    await expectAccessible(page, 'payees');

    // The payout form offers it (a reload picks it up), and the payout carries its account.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Payouts' }).waitFor();
    await page.getByText('New payout').click();
    await page.getByTestId('payout-to').selectOption({ label: 'Spaza supplier (Capitec Bank ****3004)' });
    await page.getByTestId('payout-amount').fill('250.00');
    await page.getByTestId('payout-create').click();
    await page.getByTestId('payout-row').filter({ hasText: 'R 250.00' }).waitFor();
    expect(await page.getByTestId('payout-row').filter({ hasText: 'R 250.00' }).textContent()).toContain('****3004');
    await context.close();
  });

  it('a viewer reads everything, sees no payout form, and the API refuses the payout all the same', async () => {
    const context = await newContext();
    const page = await join(context, 'viewer@kasi.example', 'VIEWER');
    await go(page, 'Payouts', 'Payouts');
    await page.getByRole('heading', { level: 1, name: 'Payouts' }).waitFor();
    expect(await page.getByTestId('payout-create').count()).toBe(0);
    // Saved payees are listed, but a viewer has nothing to add or remove them with.
    await page.getByTestId('payees-table').waitFor();
    expect(await page.getByTestId('payee-create').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    const answer = await page.evaluate(async () => {
      const csrf = document.cookie.split('; ').find((c) => c.startsWith('zarpay_csrf='))!.slice('zarpay_csrf='.length);
      const res = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({
          query: 'mutation($i: CreatePayoutInput!) { createPayout(input: $i) { payout { id } } }',
          variables: { i: { amountCents: 1000, currency: 'ZAR', payoutMethod: 'EFT', paymentDetails: { bankName: 'FNB', branchCode: '250655', accountNumber: '62012345678', accountHolder: 'T N' } } },
        }),
      });
      return res.json();
    });
    expect(answer.errors[0].extensions.code).toBe('FORBIDDEN');
    await go(page, 'Webhooks', 'Webhooks');
    expect(await page.getByTestId('webhook-url-save').count()).toBe(0);
    await context.close();
  });

  it('an owner refunds a payment and downloads a statement as CSV; a viewer\'s refund is refused by the API', async () => {
    const context = await newContext();
    const page = await join(context, 'refunder@kasi.example', 'OWNER');
    const p = await newPayment(t, shop, { amount: 20_000 });
    await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id: p.payment_id });
    await page.goto(`${t.url}/dashboard/payments/${p.payment_id}`);
    await page.getByTestId('refund-amount').fill('50.00');
    await page.getByTestId('refund-submit').click();
    await page.getByTestId('refund-confirm').click();
    await page.getByText(/Refund of R\s50\.00/).waitFor({ timeout: 15_000 });
    await expectAccessible(page, 'payment with refund');
    // An empty amount is all that is left (sent without amountCents: the API refuses null).
    await credit(t, shop.id, 20_000);
    await page.getByTestId('refund-submit').click();
    expect(await page.getByTestId('refund-confirm').textContent()).toMatch(/R\s150\.00/);
    await page.getByText(/Refund everything that is left/).waitFor();
    await page.getByTestId('refund-confirm').click();
    await page.getByText(/Refund of R\s150\.00/).waitFor({ timeout: 15_000 });

    await go(page, 'Statements', 'Statements');
    const day = new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10);
    await page.getByTestId('statement-from').fill(day);
    await page.getByTestId('statement-to').fill(day);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('statement-csv').click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('posted_at,type,reference,amount_cents,balance_after_cents,description');
    await expectAccessible(page, 'statements');

    const viewer = await join(context, 'refund-viewer@kasi.example', 'VIEWER');
    const answer = await viewer.evaluate(async (paymentId) => {
      const csrf = document.cookie.split('; ').find((c) => c.startsWith('zarpay_csrf='))!.slice('zarpay_csrf='.length);
      const res = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ query: 'mutation($i: RefundPaymentInput!) { refundPayment(input: $i) { refund { id } } }', variables: { i: { paymentId, amountCents: 100 } } }),
      });
      return res.json();
    }, p.payment_id);
    expect(answer.errors[0].extensions.code).toBe('FORBIDDEN');
    await context.close();
  });

  it('a cross-site request carrying the session cookie changes nothing', async () => {
    const context = await newContext();
    const page = await join(context, 'target@kasi.example', 'OWNER');
    const before = (await op(t, 'query($id: UUID!) { merchant(id: $id) { webhookUrl } }', { id: shop.id })).merchant.webhookUrl;
    const attacker = await context.newPage();
    // Counted before the attacker's page loads: its script sends at once.
    const refusedBefore = log.filter((l) => /"route":"\/graphql".*"status":403/.test(l)).length;
    await attacker.goto(evilUrl);
    await attacker.waitForFunction(() => document.title === 'sent');
    // Both requests reached the service with the cookie, and were refused by the CSRF check.
    await expect.poll(() => log.filter((l) => /"route":"\/graphql".*"status":403/.test(l)).length - refusedBefore, { timeout: 15_000 }).toBe(2);
    const after = (await op(t, 'query($id: UUID!) { merchant(id: $id) { webhookUrl } }', { id: shop.id })).merchant.webhookUrl;
    expect(after).toBe(before);
    expect(after).not.toContain('attacker');
    // The session itself still works for the dashboard.
    await page.reload();
    await page.getByTestId('balance-available').waitFor();
    expect(cspViolations).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  });
  it('an owner on a phone and a desk (issue 33): pages, searches, refunds R 100,50 after a second step, and sees it succeed live', async () => {
    const kiosk = await createMerchant(t, { name: 'Spaza Kiosk', autoTopup: true, paymentFeeBps: 100 });
    // 35 payments, SALE-001 the oldest: the 30th-newest is SALE-006, on the second page of 25.
    let target = '';
    for (let i = 1; i <= 35; i++) {
      const order = `SALE-${String(i).padStart(3, '0')}`;
      const p = await newPayment(t, kiosk, { merchant_order_id: order, amount: i === 6 ? 10_050 : 20_000 + i, ...(i === 6 && { customer_info: { email: 'lerato@example.co.za' } }) });
      if (i === 6) target = p.payment_id;
    }
    await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id: target });
    await credit(t, kiosk.id, 50_000);

    const context = await newContext();
    const page = await join(context, 'owner@spaza.example', 'OWNER', kiosk.id);
    // The menu is one button on a phone: the header is a line, not four.
    const header = await page.locator('header').boundingBox();
    expect(header!.height).toBeLessThan(844 * 0.12);
    expect(await page.getByRole('link', { name: 'Payments', exact: true }).isVisible()).toBe(false);
    // The balance's parts add up to it, each card explained.
    const breakdown = page.getByTestId('balance-breakdown');
    expect(await breakdown.textContent()).toContain('Top-ups');
    expect(await breakdown.textContent()).toContain('R\u00a0500.00');
    await expectAccessible(page, 'balance with its breakdown');

    await go(page, 'Payments', 'Payments');
    const rows = page.getByTestId('payment-row');
    await page.getByText('35 payments, newest first').waitFor();
    expect(await rows.count()).toBe(25);
    expect(await page.getByTestId('payments-table').textContent()).not.toContain('SALE-006');
    // Dates in SAST, amounts on one line.
    expect(await rows.first().textContent()).toContain('SAST');
    await page.getByTestId('list-next').click();
    await rows.filter({ hasText: 'SALE-006' }).waitFor();
    expect(await rows.count()).toBe(10);
    expect(await page.getByTestId('list-next').isDisabled()).toBe(true);
    await expectAccessible(page, 'payments, second page');

    // The same payment found by its order reference and by its amount typed with a comma.
    for (const q of ['SALE-006', '100,50', 'Lerato@example.co.za']) {
      await page.getByTestId('payments-search').fill(q);
      await page.getByText(`1 payments found for “${q}”, newest first`).waitFor();
      expect(await rows.count(), q).toBe(1);
      expect(await rows.first().textContent(), q).toContain('SALE-006');
      expect(await page.getByTestId('list-next').count(), q).toBe(0);
    }
    await expectAccessible(page, 'payments, searched');

    await rows.first().getByRole('link').click();
    await page.waitForURL(`**/dashboard/payments/${target}`);
    await page.evaluate(() => ((globalThis as any).stillThisPage = true));
    await page.getByTestId('refund-amount').fill('R 100,50');
    await page.getByTestId('refund-submit').click();
    // Nothing moves before the second step, which states the amount.
    expect(await page.getByTestId('refund-confirm').textContent()).toContain('R\u00a0100.50');
    expect((await op(t, 'query($id: UUID!) { payment(id: $id) { refunds { id } } }', { id: target })).payment.refunds).toEqual([]);
    await expectAccessible(page, 'refund confirmation');
    await page.getByTestId('refund-confirm').click();
    await page.getByTestId('refund-status').filter({ hasText: 'pending' }).waitFor({ timeout: 15_000 });
    // The provider confirms it (the operator's settleRefund, as the sandbox would): the screen follows, no reload.
    const pending = await op(t, 'query($id: UUID!) { payment(id: $id) { refunds { id } } }', { id: target });
    await op(t, 'mutation($id: UUID!) { settleRefund(id: $id, outcome: SUCCEEDED) { refund { id } } }', { id: pending.payment.refunds[0].id });
    await page.getByTestId('refund-status').filter({ hasText: 'succeeded' }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (globalThis as any).stillThisPage)).toBe(true);
    const { payment } = await op(t, 'query($id: UUID!) { payment(id: $id) { refundedCents refunds { status amountCents } } }', { id: target });
    expect(payment).toEqual({ refundedCents: 10_050, refunds: [{ status: 'SUCCEEDED', amountCents: 10_050 }] });

    // Statements on a phone: every row's Amount and Balance are on screen.
    await go(page, 'Statements', 'Statements');
    const amounts = page.locator('td[data-label="Amount"], td[data-label="Balance"]');
    await amounts.first().waitFor();
    for (const cell of await amounts.all()) {
      const box = (await cell.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await expectAccessible(page, 'statements on a phone');
    for (const [name, heading] of [['Payouts', 'Payouts'], ['Webhooks', 'Webhooks'], ['People', 'People'], ['API keys', 'API keys']]) {
      await go(page, name!, heading!);
      await expectAccessible(page, `${name} on a phone`);
    }

    // At a desk the menu is the row of links again, and the tables are tables.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await page.getByTestId('menu').isVisible()).toBe(false);
    await go(page, 'Payments', 'Payments');
    await page.getByRole('columnheader', { name: 'Amount' }).waitFor();
    expect(await page.getByTestId('payments-search').inputValue()).toBe('');
    await expectAccessible(page, 'payments at a desk');
    await context.close();
    // Seeding 35 payments and walking six screens at two sizes: longer than the default 30 s on a busy machine.
  }, 180_000);
});
