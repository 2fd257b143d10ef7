import { test } from 'vitest';
import type { TestApp } from './app.ts';
import { createMerchant, credit, type TestMerchant } from './client.ts';

type MerchantOptions = NonNullable<Parameters<typeof createMerchant>[1]> & {
  /** Credited to its payout balance before the test. */
  fundCents?: number;
};

/**
 * `it` with a `merchant` of the test's own: created (and funded) before each test that asks
 * for it, so a test may change its fees, keys or balance without another test seeing it.
 *
 *     const it = withMerchant(() => t, { payoutFeeCents: 500, fundCents: 100_000 });
 *     it('…', async ({ merchant }) => { … });
 */
export function withMerchant(app: () => TestApp, options: MerchantOptions = {}) {
  const { fundCents, ...settings } = options;
  return test.extend<{ merchant: TestMerchant }>({
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixture's dependencies from this pattern
    merchant: async ({}, use) => {
      const t = app();
      const m = await createMerchant(t, settings);
      if (fundCents) await credit(t, m.id, fundCents);
      await use(m);
    },
  });
}
