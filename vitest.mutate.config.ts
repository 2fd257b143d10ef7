import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * The tests `npm run mutate` runs against each mutant of src/domain: those that call the rules
 * directly, without a database, a server or a browser, so a mutant costs a second, not a minute.
 * (`include` replaces the suite's list: the configs are spread, not merged.)
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'test/domain.test.ts',
      'test/domain-rules.test.ts',
      'test/domain-pure.test.ts',
      'test/domain-bank-files.test.ts',
      'test/domain-statements.test.ts',
      'test/domain-inputs.test.ts',
      'test/domain-people.test.ts',
      'test/domain-messages.test.ts',
      'test/openapi-document.test.ts',
    ],
    reporters: ['default'],
  },
});
