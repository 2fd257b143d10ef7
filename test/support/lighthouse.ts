import { existsSync } from 'node:fs';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';

/** Debian's Chromium (CI installs it); nothing downloads a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export interface Audit {
  accessibility: number;
  bestPractices: number;
  /** The audits below full marks, by id. */
  failing: string[];
}

/**
 * Lighthouse (the npm package) driving headless Chromium on a 390-pixel phone: `audit(url)` scores
 * accessibility and best practices and prints them, with what fell short, on every run.
 */
export async function lighthouseOnPhone(): Promise<{ audit(url: string, label: string): Promise<Audit>; close(): void }> {
  const chrome: LaunchedChrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    async audit(url, label) {
      const result = await lighthouse(url, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['accessibility', 'best-practices'],
        formFactor: 'mobile',
        screenEmulation: { mobile: true, width: 390, height: 844, deviceScaleFactor: 2, disabled: false },
      });
      const lhr = result!.lhr;
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const failing = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
        .map((a) => a.id);
      console.log(`Lighthouse ${label}: accessibility ${score('accessibility')}, best practices ${score('best-practices')}${failing.length ? ` (below full marks: ${failing.join(', ')})` : ''}`);
      return { accessibility: score('accessibility'), bestPractices: score('best-practices'), failing };
    },
    close: () => chrome.kill(),
  };
}
