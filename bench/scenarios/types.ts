import type { Measurement } from '../load.ts';
import type { Seed } from '../seed.ts';
import type { pgbenchScripts } from '../statements.ts';

/** What every scenario is given: the servers, the seed, zarpay's statements and the run's settings. */
export interface BenchContext {
  zarpayUrl: string;
  bareUrl: string;
  /** The GraphQL references (bench/references/), started only when a GraphQL scenario runs. */
  yogaUrl: string | null;
  postgraphileUrl: string | null;
  databaseUrl: string;
  operatorToken: string;
  seed: Seed;
  /** pgbench's version of each of zarpay's statements. */
  scripts: ReturnType<typeof pgbenchScripts>;
  connections: number;
  /** pgbench clients: the servers' pool size, so all three get the same database concurrency. */
  pgbenchClients: number;
  /** Seconds of one measured round; each side of a comparison is measured `rounds` times, taking turns. */
  durationSec: number;
  rounds: number;
  /** An unmeasured run before a side's first round (see load.ts). */
  warmupSec: number;
  runId: string;
  /** Environment of the service processes, for a scenario that starts another (the dispatcher). */
  serviceEnv: Record<string, string>;
  /** Where scenarios write logs. */
  workDir: string;
  /** Peak RSS of the zarpay process since the previous call (MiB). */
  takeRssPeak(): number;
}

export interface Target {
  text: string;
  /** null: cannot be judged in this run (feature absent, reference missing). */
  met: boolean | null;
}

/** What a GraphQL row is compared with, as the table names it. */
export const GRAPHQL_REFERENCES = { yoga: 'bare Yoga', twin: 'REST twin', postgraphile: 'PostGraphile' } as const;

/** A GraphQL row's target: the least ratio zarpay ÷ reference asked of each reference named. */
export type Thresholds = Partial<Record<keyof typeof GRAPHQL_REFERENCES, number>>;

export const targetText = (t: Thresholds) =>
  (Object.keys(GRAPHQL_REFERENCES) as (keyof Thresholds)[])
    .filter((k) => t[k] !== undefined)
    .map((k) => `≥ ${t[k]!.toFixed(1)}× ${GRAPHQL_REFERENCES[k]}`)
    .join(', ');

/** One line of the results table. */
export interface Row {
  group: string;
  name: string;
  zarpay: Measurement | null;
  bare?: Measurement | null;
  pgbench?: Measurement | null;
  /** The name of the REST row a GraphQL row is compared with. */
  twinName?: string;
  /** That REST twin re-measured just before this row, so the ratio is not minutes apart. */
  twin?: Measurement | null;
  /** GraphQL rows: bare Yoga (bench/references/yoga.ts) and PostGraphile on the same operation. */
  yoga?: Measurement | null;
  postgraphile?: Measurement | null;
  thresholds?: Thresholds;
  rssMiB?: number;
  target?: Target;
  note?: string;
}

export type Scenario = (ctx: BenchContext) => Promise<Row[]>;

/** Scatters request i over n items so consecutive requests hit different rows. */
export const pick = (i: number, n: number) => (i * 7919) % n;

export const ratio = (a: Measurement | null | undefined, b: Measurement | null | undefined) =>
  a && b && b.requestsPerSec > 0 ? a.requestsPerSec / b.requestsPerSec : null;
