import type { EmbeddedWalk } from './embedded.ts';
import type { Measurement } from './load.ts';
import { GRAPHQL_REFERENCES, ratio, type Row, type Thresholds } from './scenarios/types.ts';

export interface RunInfo {
  cpus: string;
  commit: string;
  date: string;
  settings: string;
  lifetimePeakRssMiB: number | null;
  /** zarpay's RSS once started, before any load: the floor under every RSS figure. */
  idleRssMiB: number | null;
  /** The embedded default (`npm start` without DATABASE_URL) around the README's walk. */
  embedded: EmbeddedWalk;
}

/** What `npm start` on the embedded database may hold after the README walk: a 1 GB machine runs it. */
export const EMBEDDED_RSS_TARGET_MIB = 300;

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

/** A GraphQL row's REST twin: re-measured beside it, or else the REST row of that name. */
const twinOf = (r: Row, byName: Map<string, Row>) => r.twin ?? (r.twinName ? byName.get(r.twinName)?.zarpay : undefined);

/** zarpay ÷ each reference of a GraphQL row. */
function graphqlRatios(r: Row, byName: Map<string, Row>): Record<keyof Thresholds, number | null> {
  return { yoga: ratio(r.zarpay, r.yoga), twin: ratio(r.zarpay, twinOf(r, byName)), postgraphile: ratio(r.zarpay, r.postgraphile) };
}

/** Fills in the targets that need other measurements (a GraphQL row against its references). */
export function judge(rows: Row[]) {
  const byName = new Map(rows.map((r) => [r.name, r]));
  for (const r of rows) {
    if (!r.thresholds || !r.target || !r.zarpay) continue;
    const ratios = graphqlRatios(r, byName);
    const asked = Object.entries(r.thresholds) as [keyof Thresholds, number][];
    const missed = Object.keys(r.zarpay.errors).length > 0 || asked.some(([k, least]) => ratios[k] !== null && ratios[k]! < least);
    // Met only when every reference asked for was measured in this run.
    r.target.met = missed ? false : asked.some(([k]) => ratios[k] === null) ? null : true;
  }
}

const metText = (r: Row) => (r.target ? (r.target.met === null ? 'n/a' : r.target.met ? 'met' : '**not met**') : '');

/** The GraphQL rows: zarpay beside its REST twin, bare Yoga and PostGraphile, measured in turns. */
function graphqlTable(rows: Row[], byName: Map<string, Row>): string[] {
  const out = [
    '## GraphQL',
    '',
    `"REST twin" = zarpay's own REST route for the same read or write. "${GRAPHQL_REFERENCES.yoga}" = bench/references/yoga.ts: graphql-yoga on`,
    'node:http (no Fastify), a plain graphql-js schema of the same shape answering the very same documents, its resolvers',
    'running the statements zarpay sent for the REST twin (one each; zarpay\'s GraphQL sends a DataLoader batch for',
    'payout(id) and a keyset page with its count for payouts), no auth, limits, error mapping, logs or metrics: the floor of the',
    `stack. "${GRAPHQL_REFERENCES.postgraphile}" = bench/references/postgraphile.ts: PostGraphile 5 (Amber preset, grafserv on node:http,`,
    'production mode) over the same database, sent its own documents for the same rows (payoutByRowId, paymentByRowId,',
    'balanceByMerchantId, allPayouts(first: 50, condition: {merchantId}) { totalCount nodes }): the same facts in its own',
    'shapes (bigints as strings, no computed fields), its own SQL (two statements for a page with its count), no',
    'authentication, so no per-merchant check. Before each row one request of each side is checked: bare Yoga must answer',
    'the same JSON as zarpay (the same shape for createPayout), PostGraphile the same facts.',
    '',
    '| scenario | zarpay req/s | zarpay p50 / p99 / max | errors | REST twin req/s | bare Yoga req/s | bare Yoga p50 / p99 / max | PostGraphile req/s | PostGraphile p50 / p99 / max | vs REST twin | vs bare Yoga | vs PostGraphile | peak RSS MiB | target | met |',
    '|---|---:|---|---|---:|---:|---|---:|---|---:|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const q = graphqlRatios(r, byName);
    out.push(
      `| ${r.name} | ${line(r.zarpay)} | ${errs(r.zarpay)} | ${num(twinOf(r, byName)?.requestsPerSec)} | ${line(r.yoga, true)} | ${line(r.postgraphile, true)} | ` +
        `${x(q.twin)} | ${x(q.yoga)} | ${x(q.postgraphile)} | ${num(r.rssMiB)} | ${r.target?.text ?? ''} | ${metText(r)} |`,
    );
  }
  return out;
}

/** The results table in Markdown: zarpay, then its references measured minutes apart in one run. */
export function renderReport(rows: Row[], info: RunInfo): string {
  judge(rows);
  const byName = new Map(rows.map((r) => [r.name, r]));
  const e = info.embedded;
  const out: string[] = [
    '# zarpay benchmark',
    '',
    `- machine: ${info.cpus}`,
    `- commit: ${info.commit}`,
    `- date: ${info.date}`,
    `- settings: ${info.settings}`,
    `- zarpay RSS after start-up, before load: ${num(info.idleRssMiB)} MiB (on PostgreSQL, as every row below)`,
    `- the embedded default (\`npm start\` on a new DATA_DIR, no DATABASE_URL): ${num(e.afterWalkRssMiB)} MiB after the README walk ` +
      `(${num(e.startedRssMiB)} MiB once started, ${e.startSeconds.toFixed(0)} s; the walk ${e.walkSeconds.toFixed(0)} s; ` +
      `peak ${num(e.peakRssMiB)} MiB VmHWM, during initdb; npm's own process beside it ${num(e.npmRssMiB)} MiB)`,
    '',
    'Latencies in ms (p50 / p99 / max). "bare" = bench/reference-server.ts: node:http + pg running the statements zarpay',
    'itself sent (recorded from its services at the start of the run), same JSON, no framework, auth, validation, logs or',
    'metrics. "pgbench" = the same statements (bench/statements.ts), ids drawn inside the statement. Ratios are',
    'zarpay ÷ reference, measured back to back in this run. GraphQL rows have a table of their own, below.',
    'Closed loop (wrk): p50 ≈ connections ÷ req/s.',
    '',
    '| scenario | zarpay req/s | zarpay p50 / p99 / max | errors | bare req/s | bare p50 / p99 / max | pgbench tps | pgbench p50 / p99 / max | vs bare | vs pgbench | peak RSS MiB | target | met |',
    '|---|---:|---|---|---:|---|---:|---|---:|---:|---:|---|---|',
  ];
  const graphql = rows.filter((r) => r.group === 'graphql');
  for (const r of rows.filter((r) => r.group !== 'graphql')) {
    const name = r.note ? `${r.name} (${r.note})` : r.name;
    out.push(
      `| ${name} | ${line(r.zarpay)} | ${errs(r.zarpay)} | ${line(r.bare, true)} | ${line(r.pgbench, true)} | ` +
        `${x(ratio(r.zarpay, r.bare))} | ${x(ratio(r.zarpay, r.pgbench))} | ${num(r.rssMiB)} | ${r.target?.text ?? ''} | ${metText(r)} |`,
    );
  }
  const peak = info.lifetimePeakRssMiB;
  const walked = e.afterWalkRssMiB;
  out.push(
    `| zarpay process, whole run | | | | | | | | | | ${num(peak)} (VmHWM) | RSS < 256 MiB | ${peak === null ? 'n/a' : peak < 256 ? 'met' : '**not met**'} |`,
    `| embedded default after the README walk (npm start, new DATA_DIR) | | | | | | | | | | ${num(walked)} | RSS < ${EMBEDDED_RSS_TARGET_MIB} MiB | ${walked === null ? 'n/a' : walked < EMBEDDED_RSS_TARGET_MIB ? 'met' : '**not met**'} |`,
    '',
  );
  if (graphql.length) out.push(...graphqlTable(graphql, byName), '');
  return out.join('\n');
}
