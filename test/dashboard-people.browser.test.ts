import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/domain/second-factor.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, op, type TestMerchant } from './support/client.ts';

/**
 * A person's own way in, in headless Chromium (CONTRACT §11): the invite page naming the merchant
 * and the address, a second factor set up by scanning (here: reading the secret) and asked at the
 * next sign-in, isiZulu chosen and still there after signing out and in again, a deep link that
 * survives sign-in, and a used invite link that says so before anything is typed.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe.skipIf(!existsSync(CHROMIUM))(`a person's sign-in in headless Chromium (needs ${CHROMIUM})`, () => {
  let t: TestApp;
  let shop: TestMerchant;
  let browser: Browser;

  beforeAll(async () => {
    t = await startApp();
    shop = await createMerchant(t, { name: 'Umama Spaza' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('invite → TOTP set up → isiZulu → sign out → deep link → password and TOTP code → back on the deep link, still isiZulu', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.route('**/*', (route) => (route.request().url().startsWith(t.url) || route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    const page = await context.newPage();
    const d = await op(t, 'mutation($m: UUID, $e: String!) { invitePerson(merchantId: $m, email: $e, role: OWNER) { inviteUrl } }', { m: shop.id, e: 'thandi@umama.example' });
    const link = new URL(d.invitePerson.inviteUrl);
    const inviteUrl = `${t.url}${link.pathname}${link.hash}`;

    await page.goto(inviteUrl);
    const named = await page.getByTestId('invite-for').textContent();
    expect(named).toContain('Umama Spaza');
    expect(named).toContain('thandi@umama.example');
    await page.getByTestId('set-password').fill('a password of some length');
    await page.getByTestId('set-password-submit').click();
    await page.getByTestId('balance-available').waitFor({ timeout: 15_000 });

    // The second factor: start, read the secret an app would scan, confirm with its code.
    await page.getByRole('link', { name: 'Security', exact: true }).click();
    await page.getByTestId('second-factor-start').click();
    expect(await page.getByTestId('totp-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByTestId('totp-code').fill(totpCode(secret));
    await page.getByTestId('totp-submit').click();
    await page.getByTestId('recovery-codes').waitFor();
    expect(await page.getByTestId('recovery-codes').locator('li').count()).toBe(10);

    // isiZulu: the words and <html lang> at once.
    await page.getByTestId('language').selectOption('zu');
    await page.getByRole('link', { name: 'Ibhalansi', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zu');
    // Stored with the person before signing out.
    await expect.poll(async () => (await sql<{ language: string }>`select language from merchant_people where email = 'thandi@umama.example'`.execute(t.database.db)).rows[0]!.language).toBe('zu');

    await page.getByTestId('signout').click();
    await page.getByTestId('login-email').waitFor();
    // A fresh browser too: the stored language comes back with the person, not with this browser.
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());

    // A deep link, signed out: to sign-in, and back to it afterwards.
    await page.goto(`${t.url}/dashboard/payouts`);
    await page.waitForURL(/\/dashboard\/login\?next=%2Fdashboard%2Fpayouts$/, { timeout: 15_000 });
    await page.getByTestId('login-email').fill('thandi@umama.example');
    await page.getByTestId('login-password').fill('a password of some length');
    await page.getByTestId('login-submit').click();
    // The code of the next step: the set-up's code was this step's, and no code works twice.
    await page.getByTestId('totp-code').fill(totpCode(secret, Date.now() + 30_000));
    await page.getByTestId('totp-submit').click();
    await page.waitForURL(/\/dashboard\/payouts$/, { timeout: 15_000 });
    await page.getByRole('link', { name: 'Ibhalansi', exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zu');

    // The invite link again: used, said at once, with the way to sign in.
    const used = await context.newPage();
    await used.goto(inviteUrl);
    expect(await used.getByTestId('invite-state').textContent()).toContain('sisetshenzisiwe');
    expect(await used.getByTestId('set-password').count()).toBe(0);
    await context.close();
  }, 240_000);
});
