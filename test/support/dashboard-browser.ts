import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { MESSAGES } from '../../dashboard/src/i18n.ts';

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

/**
 * The dashboard's English (dashboard/src/i18n.ts's `en`), as the pieces of each text between its
 * `{places}` (a place holds data), less the pieces the other language says too (a name such as
 * WhatsApp) and those too short to be a word.
 */
export function englishWords(language: 'af' | 'zu'): string[] {
  const theirs = Object.values(MESSAGES[language]).join('\n');
  const pieces = new Set<string>();
  for (const text of Object.values(MESSAGES.en)) {
    for (const piece of text.split(/\{\w+\}/)) {
      const p = piece.replace(/^[\s,.:;()“”'’—·…-]+|[\s,.:;()“”'’—·-]+$/gu, '');
      if (/\p{L}{3}/u.test(p) && !theirs.includes(p)) pieces.add(p);
    }
  }
  return [...pieces];
}

/**
 * Which of `words` the screen says: its text, its title, and what a screen reader reads besides
 * (labels, placeholders, alternative texts). Data is left out (`translate="no"`: names, references,
 * e-mail addresses). The audit log's sentences are read too: the service writes them in the
 * reader's language.
 */
export async function wordsOnScreen(page: Page, words: readonly string[]): Promise<string[]> {
  return page.evaluate((words) => {
    const data = (el: Element | null) => Boolean(el?.closest('[translate="no"], script, style'));
    const texts = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (!data(node.parentElement)) texts.push(node.textContent ?? '');
    for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [alt], [title]')) {
      if (data(el)) continue;
      for (const name of ['aria-label', 'placeholder', 'alt', 'title']) texts.push(el.getAttribute(name) ?? '');
    }
    const text = texts.join('\n');
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // A whole word or phrase: `captured` is not found in `payment.captured`, nor `Pay` in `Payments`.
    return words.filter((w) => new RegExp(`(?<![\\p{L}._@-])${escape(w)}(?![\\p{L}_@-])`, 'u').test(text));
  }, words);
}
