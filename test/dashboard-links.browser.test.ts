import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, go } from './support/dashboard-browser.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, expectLedgerOk, http, op, type TestMerchant } from './support/client.ts';
import { newPayment } from './support/payments.ts';
import { freePort } from './support/processes.ts';
import { eventually } from './support/receiver.ts';
import { startSmtpServer } from './support/smtp.ts';

/**
 * The owner takes payments without a developer (CONTRACT §11), in headless Chromium: payment
 * links made on the Links screen and paid through `/l/{id}` by a customer, counted on the screen
 * as they are paid; an unpaid payment's link and QR code; a payment request e-mailed to the
 * customer; and a viewer who sees links but no controls. axe on the new screen.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe.skipIf(!existsSync(CHROMIUM))(`payment links and requests on the dashboard in headless Chromium (needs ${CHROMIUM})`, () => {
  let t: TestApp;
  let shop: TestMerchant;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    // A link's page answers 303 to the payment's payment_url: the public address is this server's.
    const port = await freePort();
    smtp = await startSmtpServer();
    t = await startApp({
      SANDBOX_CONFIRM_DELAY_MS: '50',
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Spaza Lerato <pay@spaza.example>',
    });
    shop = await createMerchant(t, { name: 'Spaza Lerato', autoTopup: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  /** Another origin's request is refused: the screens use this service alone. */
  async function newContext(width = 1280, height = 800): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width, height } });
    await context.route('**/*', (route) => (route.request().url().startsWith(t.url) || route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    return context;
  }

  async function join(context: BrowserContext, email: string, role: 'OWNER' | 'VIEWER'): Promise<Page> {
    const d = await op(t, 'mutation($m: UUID, $e: String!, $r: PersonRole!) { invitePerson(merchantId: $m, email: $e, role: $r) { inviteUrl } }', { m: shop.id, e: email, r: role });
    const u = new URL(d.invitePerson.inviteUrl);
    const page = await context.newPage();
    await page.goto(`${t.url}${u.pathname}${u.hash}`);
    await page.getByTestId('set-password').fill('a password of some length');
    await page.getByTestId('set-password').press('Enter');
    await page.getByTestId('balance-available').waitFor({ timeout: 15_000 });
    return page;
  }


  /** The customer, in a browser of their own: the link's page, then the hosted page, to captured. */
  async function payThroughLink(url: string, typed?: string) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(url);
    if (typed !== undefined) await page.getByTestId('link-amount').fill(typed);
    await page.getByTestId('pay').click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    await page.getByTestId('pay').click();
    await page.locator('[data-testid="payment-status"][data-status="captured"]').waitFor({ timeout: 15_000 });
    await context.close();
  }

  const row = (page: Page, description: string) => page.getByTestId('link-row').filter({ hasText: description });

  it('an owner makes a fixed and an open link, a customer pays both through /l/{id}, and the Links screen counts them as they are paid', async () => {
    const context = await newContext();
    const page = await join(context, 'owner@spaza.example', 'OWNER');
    await go(page, 'Links', 'Payment links');
    await expectAccessible(page, 'links');

    await page.getByTestId('payment-link-description').fill('Braai pack');
    await page.getByTestId('payment-link-amount').fill('150,50');
    await page.getByTestId('payment-link-create').click();
    const fixedUrl = (await page.getByTestId('payment-link-url').textContent())!;
    expect(fixedUrl).toMatch(new RegExp(`^${t.url}/l/[0-9a-f-]{36}$`));
    // Its QR code is an image the browser loaded, and the WhatsApp link carries the URL.
    await eventually(() => page.getByTestId('payment-link-qr').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
    const share = new URL((await page.getByTestId('payment-link-whatsapp').getAttribute('href'))!);
    expect(share.origin + share.pathname).toBe('https://wa.me/');
    expect(share.searchParams.get('text')).toContain(fixedUrl);
    await expect.poll(() => row(page, 'Braai pack').textContent()).toContain('R\u00a0150.50');
    await expectAccessible(page, 'links with a new link');

    await page.getByTestId('payment-link-description').fill('Tip jar');
    await page.getByTestId('payment-link-create').click();
    await expect.poll(() => page.getByTestId('payment-link-url').textContent()).not.toBe(fixedUrl);
    const openUrl = (await page.getByTestId('payment-link-url').textContent())!;
    await expect.poll(() => row(page, 'Tip jar').textContent()).toContain('customer types it');

    // Paid by a customer while the owner watches: the counts follow without a reload.
    await payThroughLink(fixedUrl);
    await expect.poll(() => row(page, 'Braai pack').getByTestId('link-captured').textContent(), { timeout: 15_000 }).toBe('R\u00a0150.50');
    expect(await row(page, 'Braai pack').getByTestId('link-payments').textContent()).toBe('1');
    await payThroughLink(openUrl, 'R 75,25');
    await expect.poll(() => row(page, 'Tip jar').getByTestId('link-captured').textContent(), { timeout: 15_000 }).toBe('R\u00a075.25');

    // Switched off, its page says it is closed; on again, it takes payments.
    await row(page, 'Tip jar').getByTestId('link-switch').click();
    await expect.poll(() => row(page, 'Tip jar').getByTestId('link-state').textContent()).toBe('off');
    expect((await fetch(openUrl)).status).toBe(410);
    await row(page, 'Tip jar').getByTestId('link-switch').click();
    await expect.poll(() => row(page, 'Tip jar').getByTestId('link-state').textContent()).toBe('on');
    expect((await fetch(openUrl)).status).toBe(200);
    await context.close();
    await expectLedgerOk(t);
  }, 120_000);

  it('the list pages: the 26th link is on the next page', async () => {
    for (let i = 1; i <= 25; i++) {
      expect((await http(t, 'POST', '/api/v1/payment-links', { key: shop.key, body: { description: `Lesson ${i}` } })).status).toBe(201);
    }
    const context = await newContext(390, 844);
    const page = await join(context, 'pager@spaza.example', 'OWNER');
    await go(page, 'Links', 'Payment links');
    await row(page, 'Lesson 25').waitFor();
    expect(await page.getByTestId('link-row').count()).toBe(25);
    // Each row shares its own link: closed until asked for, so the QR codes are not loaded up front.
    const lesson = row(page, 'Lesson 25');
    expect(await lesson.getByTestId('link-share-qr').isVisible()).toBe(false);
    await lesson.getByTestId('link-share').locator('summary').click();
    const lessonUrl = (await lesson.getByTestId('link-share-url').textContent())!;
    expect(lessonUrl).toBe(await lesson.locator('a').first().getAttribute('href'));
    expect(lessonUrl).toMatch(new RegExp(`^${t.url}/l/[0-9a-f-]{36}$`));
    await eventually(() => lesson.getByTestId('link-share-qr').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
    const wa = new URL((await lesson.getByTestId('link-share-whatsapp').getAttribute('href'))!);
    expect(wa.origin + wa.pathname).toBe('https://wa.me/');
    expect(wa.searchParams.get('text')).toBe(`Pay Lesson 25: ${lessonUrl}`);
    expect(await row(page, 'Lesson 24').getByTestId('link-share-qr').isVisible()).toBe(false);
    await expectAccessible(page, 'links on a phone, one row shared');
    await page.getByTestId('list-next').click();
    await row(page, 'Braai pack').waitFor();
    await expectAccessible(page, 'links on a phone, page 2');
    await context.close();
  }, 60_000);

  it("an unpaid payment's page shows its payment_url and QR code to share; once paid, no longer", async () => {
    const payment = await newPayment(t, shop, { description: 'Birthday cake' });
    const context = await newContext(390, 844);
    const page = await join(context, 'counter@spaza.example', 'OWNER');
    await page.goto(`${t.url}/dashboard/payments/${payment.payment_id}`);
    await page.getByTestId('payment-share').waitFor();
    expect(await page.getByTestId('payment-link-url').textContent()).toBe(payment.payment_url);
    await eventually(() => page.getByTestId('payment-link-qr').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
    const share = new URL((await page.getByTestId('payment-link-whatsapp').getAttribute('href'))!);
    expect(share.searchParams.get('text')).toBe(`Pay Birthday cake: ${payment.payment_url}`);
    await expectAccessible(page, 'an unpaid payment');

    await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { status } } }', { id: payment.payment_id });
    await page.reload();
    await page.getByText('captured').first().waitFor();
    expect(await page.getByTestId('payment-share').count()).toBe(0);
    await context.close();
  }, 60_000);

  it("a payment request: the owner types R 450,00, a description and the customer's e-mail; the e-mail arrives with the payment's URL", async () => {
    const context = await newContext(390, 844);
    const page = await join(context, 'requests@spaza.example', 'OWNER');
    await go(page, 'Links', 'Payment links');
    await page.getByText('Request a payment by e-mail').click();
    await page.getByTestId('payment-request-amount').fill('450,00');
    await page.getByTestId('payment-request-description').fill('Catering, 12 December');
    await page.getByTestId('payment-request-email').fill('naledi@example.co.za');
    await page.getByTestId('payment-request-create').click();
    const url = (await page.getByTestId('payment-request-url').textContent())!;
    expect(url).toMatch(new RegExp(`^${t.url}/pay/[0-9a-f-]{36}$`));
    expect(await page.getByTestId('payment-request-sent').textContent()).toContain('R\u00a0450.00');
    await expectAccessible(page, 'links with a request sent');
    const mail = await eventually(async () => smtp.received.find((m) => m.to === 'naledi@example.co.za'), 15_000);
    expect(mail.subject).toBe('Spaza Lerato asks you to pay R 450.00');
    expect(mail.text).toContain(`Pay here: ${url}`);

    // A wrong address is said beside its field, and nothing is sent.
    await page.getByTestId('payment-request-amount').fill('450');
    await page.getByTestId('payment-request-description').fill('Catering');
    await page.getByTestId('payment-request-email').fill('naledi@');
    await page.getByTestId('payment-request-email').evaluate((el: HTMLInputElement) => (el.type = 'text'));
    await page.getByTestId('payment-request-create').click();
    await page.getByTestId('error-customerEmail').waitFor();
    await context.close();
  }, 60_000);

  it('in isiZulu the Links screen and the request form speak it, and it stays with the person', async () => {
    const context = await newContext();
    const page = await join(context, 'zulu@spaza.example', 'OWNER');
    await go(page, 'Links', 'Payment links');
    await row(page, 'Lesson 25').waitFor();
    await page.getByTestId('language').selectOption('zu');
    await page.getByRole('heading', { level: 1, name: 'Izixhumanisi zokukhokha' }).waitFor();
    expect(await page.getByTestId('payment-link-create').textContent()).toBe('Dala isixhumanisi');
    expect(await page.getByText('Cela inkokhelo nge-imeyili').count()).toBe(1);
    expect(await page.getByText('Lokho ikhasimende elikhokhela khona').count()).toBe(1);
    expect(await row(page, 'Lesson 25').getByTestId('link-state').textContent()).toBe('kuvuliwe');
    expect(await row(page, 'Lesson 25').getByTestId('link-switch').textContent()).toBe('Vala');
    expect(await page.locator('caption').first().textContent()).toMatch(/^Izixhumanisi zokukhokha ezingu-\d+, ezintsha kuqala$/);
    expect(await page.getByText('Payment links').count()).toBe(0);
    await expectAccessible(page, 'links in isiZulu');
    // Stored with the person, not only in this browser: with the browser's memory gone, it comes
    // back (and /dashboard/links itself loads the dashboard, as a bookmark would).
    await expect.poll(async () => (await sql<{ language: string }>`select language from merchant_people where email = 'zulu@spaza.example'`.execute(t.database.db)).rows[0]?.language).toBe('zu');
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Izixhumanisi zokukhokha' }).waitFor();
    await page.getByTestId('language').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Payment links' }).waitFor();
    expect(await page.getByTestId('payment-link-create').textContent()).toBe('Create link');
    await context.close();
  }, 60_000);

  it('a viewer sees the links but no link controls', async () => {
    const context = await newContext(390, 844);
    const page = await join(context, 'viewer@spaza.example', 'VIEWER');
    await go(page, 'Links', 'Payment links');
    await page.getByTestId('link-row').first().waitFor();
    expect(await page.getByTestId('payment-link-create').count()).toBe(0);
    expect(await page.getByTestId('link-switch').count()).toBe(0);
    expect(await page.getByTestId('payment-request-create').count()).toBe(0);
    await expectAccessible(page, 'links as a viewer');
    await context.close();
  }, 60_000);
});
