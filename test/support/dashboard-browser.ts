import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** axe-core's script, handed to the page through the test's own channel (the CSP refuses inline scripts, as it should). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe finds nothing on the screen, and nothing scrolls sideways: the page is no wider than the window. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  if (!(await page.evaluate(() => typeof (globalThis as any).axe !== 'undefined'))) await page.evaluate(AXE);
  const result = await page.evaluate(async () => (globalThis as any).axe.run(document, { resultTypes: ['violations'] }));
  const violations = (result.violations as { id: string; nodes: { target: string[] }[] }[]).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(violations, `axe on ${screen}`).toEqual([]);
  const { width, inner } = await page.evaluate(() => ({ width: document.scrollingElement!.scrollWidth, inner: innerWidth }));
  expect(width, `${screen} fits ${inner} px`).toBeLessThanOrEqual(inner);
}

/** To a screen through the menu: on a phone it is folded behind the menu button, which opens it first. */
export async function go(page: Page, name: string, heading: string): Promise<void> {
  const menu = page.getByTestId('menu');
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}
