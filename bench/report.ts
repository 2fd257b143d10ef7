import type { Measurement } from './load.ts';
import { ratio, type Row } from './scenarios/types.ts';

export interface RunInfo {
  cpus: string;
  commit: string;
  date: string;
  settings: string;
  lifetimePeakRssMiB: number | null;
  /** zarpay's RSS once started, before any load: the floor under every RSS figure. */
  idleRssMiB: number | null;
}

const num = (n: number | null | undefined, digits = 0) => (n === null || n === undefined ? '—' : n.toFixed(digits));
const ms = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n < 10 ? n.toFixed(2) : n.toFixed(0));
const x = (r: number | null) => (r === null ? '—' : `${r.toFixed(2)}×`);
const errs = (m: Measurement | null | undefined) =>
  !m ? '—' : Object.keys(m.errors).length === 0 ? '0' : Object.entries(m.errors).map(([k, v]) => `${k}: ${v}`).join(', ');
/** req/s and latencies; a reference's errors are flagged in place, since failing fast inflates req/s. */
const line = (m: Measurement | null | undefined, flagErrors = false) =>
  m
    ? `${num(m.requestsPerSec)}${flagErrors && Object.keys(m.errors).length > 0 ? ` (errors: ${errs(m)})` : ''} | ${ms(m.p50)} / ${ms(m.p99)} / ${ms(m.max)}`
    : '— | —';

/** Fills in the targets that need another row (GraphQL against its REST twin). */
export function judge(rows: Row[]) {
  const byName = new Map(rows.map((r) => [r.name, r]));
  for (const r of rows) {
    if (!r.twinName || !r.target || !r.zarpay) continue;
    const rest = r.twin ?? byName.get(r.twinName)?.zarpay;
    const q = ratio(r.zarpay, rest);
    r.target.met = q === null ? null : q >= 0.7 && Object.keys(r.zarpay.errors).length === 0;
  }
}

/** The results table in Markdown: zarpay, then its references measured minutes apart in one run. */
export function renderReport(rows: Row[], info: RunInfo): string {
  judge(rows);
  const byName = new Map(rows.map((r) => [r.name, r]));
  const out: string[] = [
    '# zarpay benchmark',
    '',
    `- machine: ${info.cpus}`,
    `- commit: ${info.commit}`,
    `- date: ${info.date}`,
    `- settings: ${info.settings}`,
    `- zarpay RSS after start-up, before load: ${num(info.idleRssMiB)} MiB`,
    '',
    'Latencies in ms (p50 / p99 / max). "bare" = bench/reference-server.ts: node:http + pg running the statements zarpay',
    'itself sent (recorded from its services at the start of the run), same JSON, no framework, auth, validation, logs or',
    'metrics. "pgbench" = the same statements (bench/statements.ts), ids drawn inside the statement. Ratios are',
    'zarpay ÷ reference, measured back to back in this run; a GraphQL row\'s REST twin is re-measured just before it.',
    'Closed loop (wrk): p50 ≈ connections ÷ req/s.',
    '',
    '| scenario | zarpay req/s | zarpay p50 / p99 / max | errors | bare req/s | bare p50 / p99 / max | pgbench tps | pgbench p50 / p99 / max | vs bare | vs pgbench | vs REST twin | peak RSS MiB | target | met |',
    '|---|---:|---|---|---:|---|---:|---|---:|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const twin = r.twin ?? (r.twinName ? byName.get(r.twinName)?.zarpay : undefined);
    const met = r.target ? (r.target.met === null ? 'n/a' : r.target.met ? 'met' : '**not met**') : '';
    const name = r.note ? `${r.name} (${r.note})` : r.name;
    out.push(
      `| ${name} | ${line(r.zarpay)} | ${errs(r.zarpay)} | ${line(r.bare, true)} | ${line(r.pgbench, true)} | ` +
        `${x(ratio(r.zarpay, r.bare))} | ${x(ratio(r.zarpay, r.pgbench))} | ${x(ratio(r.zarpay, twin))} | ${num(r.rssMiB)} | ${r.target?.text ?? ''} | ${met} |`,
    );
  }
  const peak = info.lifetimePeakRssMiB;
  out.push(
    `| zarpay process, whole run | | | | | | | | | | | ${num(peak)} (VmHWM) | RSS < 256 MiB | ${peak === null ? 'n/a' : peak < 256 ? 'met' : '**not met**'} |`,
    '',
  );
  return out.join('\n');
}
