import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * The tests `npm run mutate` runs against each mutant of src/jobs: the runner's rules called
 * directly (test/jobs-rules.test.ts), and the runner itself on a real queue table.
 *
 * Needs PostgreSQL (DATABASE_URL): the suite's global setup migrates a template database once per
 * Stryker test runner, and each run of a test file clones it, so a mutant costs seconds. On the
 * embedded database every run of test/jobs.test.ts migrates a fresh PGlite (about 40 s), once per
 * mutant: hours for src/jobs.
 */
if (!process.env.DATABASE_URL) {
  throw new Error('mutation testing of src/jobs needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
}

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/jobs-rules.test.ts', 'test/jobs.test.ts', 'test/jobs-property.test.ts'], reporters: ['default'] },
});
