import { existsSync } from 'node:fs';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (CI installs it); nothing downloads a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export interface Audit {
  accessibility: number;
  bestPractices: number;
  /** Only when asked for (`performance: true`): the simulated mid-range phone on a slow 4G line. */
  performance?: number;
  /** The audits below full marks, by id. */
  failing: string[];
  /** The path the page showed at the end (a dashboard screen that fell back to sign-in shows /dashboard/login). */
  finalPath: string;
}

export interface AuditOptions {
  /** Score performance too (and print it). */
  performance?: boolean;
}

/**
 * Lighthouse (the npm package) driving headless Chromium on a 390-pixel phone: `audit(url)` scores
 * accessibility and best practices and prints them, with what fell short, on every run.
 */
export async function lighthouseOnPhone(): Promise<{
  audit(url: string, label: string, options?: AuditOptions): Promise<Audit>;
  /**
   * Runs `steps` on a page of this same browser (Playwright over its DevTools port), such as
   * setting a password through an invite link: the session cookie it gets is the browser's, and
   * Lighthouse's reset before each audit clears caches, service workers and the like, never
   * cookies, so the audits after it see the dashboard signed in (from a cold cache).
   */
  signIn(steps: (page: Page) => Promise<void>): Promise<void>;
  close(): void;
}> {
  const chrome: LaunchedChrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let driver: Browser | undefined;
  return {
    async signIn(steps) {
      driver ??= await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const page = await driver.contexts()[0]!.newPage();
      try {
        await steps(page);
      } finally {
        await page.close();
      }
    },
    async audit(url, label, options = {}) {
      const started = Date.now();
      const result = await lighthouse(url, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['accessibility', 'best-practices', ...(options.performance ? ['performance'] : [])],
        formFactor: 'mobile',
        screenEmulation: { mobile: true, width: 390, height: 844, deviceScaleFactor: 2, disabled: false },
        // Not scored, and each costs seconds: the screenshots, and bf-cache's navigating away and back.
        disableFullPageScreenshot: true,
        // A screen with live updates holds its event stream open, so the network is never quiet and
        // Lighthouse would wait its default 45 s for nothing; 10 s is plenty for a page that is there
        // (its paint and layout metrics are taken in the first second or two).
        maxWaitForLoad: 10_000,
        skipAudits: ['bf-cache', 'screenshot-thumbnails', 'final-screenshot'],
      });
      const lhr = result!.lhr;
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const failing = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
        .map((a) => a.id);
      const performance = options.performance ? score('performance') : undefined;
      console.log(
        `Lighthouse ${label}: accessibility ${score('accessibility')}, best practices ${score('best-practices')}` +
          `${performance !== undefined ? `, performance ${performance}` : ''}${failing.length ? ` (below full marks: ${failing.join(', ')})` : ''}; ${((Date.now() - started) / 1000).toFixed(1)} s${lhr.runWarnings.length ? `; warnings: ${lhr.runWarnings.join(' | ')}` : ''}`,
      );
      return { accessibility: score('accessibility'), bestPractices: score('best-practices'), ...(performance !== undefined && { performance }), failing, finalPath: new URL(lhr.finalDisplayedUrl).pathname };
    },
    close: () => {
      // Playwright only lets go of the DevTools connection; the browser is chrome-launcher's to end.
      void driver?.close().catch(() => {});
      chrome.kill();
    },
  };
}
