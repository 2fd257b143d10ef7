import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, payoutBody, type TestMerchant } from './support/client.ts';
import { ROOT } from './support/processes.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Screenshots of what a dashboard developer sees (git-ignored). */
export const OUTPUT = join(ROOT, 'test/output');

describe.skipIf(!existsSync(CHROMIUM))(`GraphiQL at /graphql in headless Chromium, offline (needs ${CHROMIUM}; CI installs it)`, () => {
  let t: TestApp;
  let shop: TestMerchant;
  let browser: Browser;
  /** Requests the page tried to send anywhere but the service: a CDN, fonts, telemetry. */
  const outside: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    t = await startApp();
    shop = await createMerchant(t, { name: 'Kasi Coffee & Co' });
    await credit(t, shop.id, 500_000);
    await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(12_345) });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A fresh browser profile with no network but the service: anything else is refused and noted. */
  async function offlineContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(t.url) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
      outside.push(url);
      return route.abort();
    });
    context.on('console', (msg) => {
      if (msg.type() === 'error' || /Content Security Policy/i.test(msg.text())) problems.push(msg.text());
    });
    context.on('weberror', (e) => problems.push(String(e.error())));
    return context;
  }

  /** Types the merchant's key into the headers editor, as a person pastes it. */
  async function enterKey(page: Page) {
    await page.getByRole('button', { name: 'Headers' }).first().click();
    const editor = page.locator('.graphiql-editor-tool .graphiql-editor').last();
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(JSON.stringify({ 'X-API-Key': shop.key }));
  }

  /** The result pane's text (Monaco shows spaces as no-break spaces). */
  const response = async (page: Page) => (await page.locator('.graphiql-response').innerText()).replace(/\u00a0/g, ' ');

  it('opens with a merchant\'s query and an X-API-Key template, and runs it with a key: data, no CDN', async () => {
    const context = await offlineContext();
    const page = await context.newPage();
    const res = await page.goto(`${t.url}/graphql`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('.graphiql-query-editor .view-lines').filter({ hasText: 'query Dashboard' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Headers' }).first().click();
    await expect.poll(() => page.locator('.graphiql-editor-tool').innerText()).toContain('X-API-Key');

    await enterKey(page);
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => response(page), { timeout: 15_000 }).toContain('availableCents');
    const text = await response(page);
    expect(text).toContain('Kasi Coffee & Co');
    expect(text).toContain('"totalCount": 1');
    expect(text).toContain('"amountCents": 12345');
    expect(text).not.toContain('"errors"');
    await page.screenshot({ path: join(OUTPUT, 'graphiql-dashboard.png') });
    // The key was not written to the browser's storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain(shop.key);
    await context.close();
  });

  it('opens on a working screen: the schema loads with the template headers, and the Docs pane shows it', async () => {
    const context = await offlineContext();
    const page = await context.newPage();
    const seen: string[] = [];
    context.on('console', (msg) => seen.push(msg.text()));
    const introspected = page.waitForResponse((r) => r.url().startsWith(`${t.url}/graphql`) && r.request().method() === 'POST', { timeout: 30_000 });
    await page.goto(`${t.url}/graphql`);
    await page.locator('.graphiql-query-editor .view-lines').filter({ hasText: 'query Dashboard' }).waitFor({ timeout: 30_000 });
    // The first thing the page does is fetch the schema, with the headers shown: that must work.
    const first = await introspected;
    expect(first.status()).toBe(200);
    expect(JSON.stringify(await first.json())).toContain('__schema');
    await page.getByRole('button', { name: /Show Documentation Explorer/i }).click();
    await expect.poll(() => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 15_000 }).toMatch(/Root Types/i);
    expect(await page.locator('body').innerText()).not.toMatch(/Error fetching schema/i);
    expect(seen.filter((m) => /ISO-8859-1|Failed to execute 'fetch'|Error fetching schema/i.test(m))).toEqual([]);
    await context.close();
  });

  it('opens on the guided query again on a return visit, with the tabs an earlier visit stored, and runs it', async () => {
    const context = await offlineContext();
    const page = await context.newPage();
    const guided = page.locator('.graphiql-query-editor .view-lines').filter({ hasText: 'query Dashboard' });
    await page.goto(`${t.url}/graphql`);
    await guided.waitFor({ timeout: 30_000 });
    // The first visit leaves its tabs in the browser's storage, as any visit does.
    await expect.poll(() => page.evaluate(() => Object.keys(localStorage).join(' ')), { timeout: 15_000 }).toContain('tabState');

    // The newcomer comes back the next day: the same address, typed again.
    await page.goto(`${t.url}/graphql`);
    const editor = page.locator('.graphiql-query-editor .view-lines');
    await editor.waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.graphiql-tab-active').innerText(), { timeout: 10_000 }).toContain('Dashboard');
    expect((await editor.innerText()).replace(/\u00a0/g, ' ')).toContain('query Dashboard');
    expect(await page.locator('.graphiql-tabs').innerText()).not.toContain('<untitled>');
    await enterKey(page);
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => response(page), { timeout: 15_000 }).toContain('availableCents');
    expect(await response(page)).not.toContain('"errors"');
    await context.close();
  }, 90_000);

  it('runs a subscription over SSE: a payout created elsewhere appears in the response pane', async () => {
    const context = await offlineContext();
    const page = await context.newPage();
    const subscription = 'subscription Live { payoutEvents { position type payout { id status amountCents } } }';
    await page.goto(`${t.url}/graphql?query=${encodeURIComponent(subscription)}`);
    await page.locator('.graphiql-query-editor .view-lines').filter({ hasText: 'subscription Live' }).waitFor({ timeout: 30_000 });
    await enterKey(page);
    const before = t.app.services.events.subscriberCount;
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => t.app.services.events.subscriberCount, { timeout: 15_000 }).toBeGreaterThan(before);

    const created = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(777) });
    await expect.poll(() => response(page), { timeout: 15_000 }).toContain(created.body.data.id);
    const text = await response(page);
    expect(text).toContain('payout.created');
    expect(text).toContain('"position"');
    await page.screenshot({ path: join(OUTPUT, 'graphiql-subscription.png') });
    await context.close();
  });

  it('sent nothing outside the service and logged no error', () => {
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
