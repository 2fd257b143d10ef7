import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { ROOT } from '../../test/support/processes.ts';
import type { Check } from './checks.ts';
import { logFigures, type MachineSamples, machineFigures, requestFigures, rssFigures, webhookFigures } from './figures.ts';
import type { Outcome } from './http.ts';
import type { Instance } from './instances.ts';
import type { Pacer, Troubles } from './pace.ts';
import type { Receipt } from './receiver.ts';

export interface ReportInput {
  /** One sentence: what ran, with which options. */
  settings: string;
  checks: Check[];
  outcomes: Outcome[];
  instances: Instance[];
  receipts: Receipt[];
  /** Each event's commit time, by id. */
  createdAt: Map<string, number>;
  loadFrom: number;
  loadTo: number;
  pacer: Pacer;
  troubles: Troubles;
  machine: MachineSamples;
}

/** The soak's report (Markdown): the checks with their figures, then the figures of the run. */
export function render(r: ReportInput): string {
  const cpu = cpus();
  const loadMs = r.loadTo - r.loadFrom;
  const failed = r.checks.filter((c) => !c.ok).length;
  const lines = [
    `# zarpay soak: ${(loadMs / 1000).toFixed(0)} s of load`,
    '',
    `${new Date(r.loadFrom).toISOString()}, commit ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim()}, ` +
      `${cpu.length} × ${cpu[0]?.model ?? 'unknown'}, Node ${process.version}. ${r.settings}`,
    '',
    '## Checks',
    '',
    ...r.checks.flatMap((c) => [`${c.ok ? 'PASS' : 'FAIL'}  ${c.name}`, ...c.lines.map((l) => `      ${l}`)]),
    '',
    failed ? `${failed} of ${r.checks.length} checks FAILED.` : 'All checks passed.',
    '',
    '## Figures',
    '',
    '```',
    ...requestFigures(r.outcomes, loadMs),
    '',
    ...rssFigures(r.instances, r.loadFrom, loadMs),
    '',
    ...webhookFigures(r.receipts, r.createdAt),
    '',
    ...logFigures(r.instances),
    '',
    ...machineFigures(r.machine, r.instances, loadMs, cpu.length),
    '```',
  ];
  const skipped = [...r.pacer.skipped].filter(([, n]) => n > 0);
  if (skipped.length || r.troubles.size) {
    lines.push('', '## The soak itself', '');
    if (skipped.length) lines.push(`Not sent (200 of the kind already waiting for answers): ${skipped.map(([k, n]) => `${k} ${n}`).join(', ')}`);
    for (const [what, n] of r.troubles) lines.push(`- ${n} × ${what}`);
  }
  return lines.join('\n') + '\n';
}
