import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql ships both index.mjs and index.js. Node loads the CommonJS one for our
    // dependencies; make Vite load the same file for our own code, or two copies clash.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Each file gets its own database (a clone of a migrated template, or an in-memory PGlite).
    pool: 'forks',
    // Most files spend their time waiting (child processes, timers, a browser), so even a
    // two-core machine runs two at once; Vitest's default there (cores - 1) would run one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: 'silent' },
    // The default output, then every skipped test by name: the names say what they need.
    reporters: ['default', './test/support/skip-reporter.ts'],
  },
});
