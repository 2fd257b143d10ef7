import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/** The tests `npm run mutate` runs against each mutant of src/jobs: the runner's own, on the embedded database. */
export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/jobs.test.ts', 'test/jobs-property.test.ts'], reporters: ['default'] },
});
