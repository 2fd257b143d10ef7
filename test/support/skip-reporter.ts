import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * Lists every skipped test at the end of a run with its full name, which says why it was
 * skipped (`… (needs PostgreSQL: set DATABASE_URL)`): vitest's default reporter only counts them.
 */
export default class SkipReporter implements Reporter {
  private skipped: string[] = [];

  onTestRunStart() {
    this.skipped = [];
  }

  onTestModuleEnd(module: TestModule) {
    for (const test of module.children.allTests()) {
      if (test.result().state === 'skipped') this.skipped.push(`${module.moduleId.split('/test/').pop()} > ${fullName(test)}`);
    }
  }

  onTestRunEnd() {
    if (this.skipped.length === 0) return;
    process.stdout.write(`\n Skipped (${this.skipped.length}), each saying why:\n${this.skipped.map((s) => `   - ${s}`).join('\n')}\n`);
  }
}

function fullName(test: TestCase): string {
  return test.fullName;
}
