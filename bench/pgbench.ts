import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Measurement } from './load.ts';

const run = promisify(execFile);
export const PGBENCH = '/usr/bin/pgbench';

/** Fails with a clear message when PostgreSQL's pgbench is not installed. */
export function assertPgbench() {
  if (!existsSync(PGBENCH)) throw new Error(`the benchmark's database reference is pgbench: install it (apt-get install postgresql-client); ${PGBENCH} not found`);
}

export interface PgbenchOptions {
  databaseUrl: string;
  /** The script's text (see statements.ts) and its `-D` constants. */
  script: { script: string; defines: Record<string, string> };
  clients: number;
  durationSec: number;
  vars: Record<string, number>;
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Debian's pgbench running one of zarpay's statements (statements.ts) with prepared statements
 * (as zarpay's pool and the bare server send them), `-j 2`; latencies from its per-transaction
 * log. A failed transaction (e.g. an unexpected error) aborts that client, so it shows as lost tps.
 */
export async function pgbench(o: PgbenchOptions): Promise<Measurement> {
  const dir = mkdtempSync(join(tmpdir(), 'zarpay-pgbench-'));
  writeFileSync(join(dir, 'script.sql'), o.script.script);
  try {
    const args = [
      '-n', '-M', 'prepared', '-c', String(o.clients), '-j', '2', '-T', String(o.durationSec),
      '-f', join(dir, 'script.sql'),
      '-l', `--log-prefix=${join(dir, 'log')}`,
      ...Object.entries({ ...o.script.defines, ...o.vars }).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
      o.databaseUrl,
    ];
    const { stdout, stderr } = await run(PGBENCH, args, { maxBuffer: 16 * 1024 * 1024 }).catch((e) => ({
      stdout: String(e.stdout ?? ''),
      stderr: String(e.stderr ?? e.message),
    }));
    const tps = /tps = ([\d.]+)/.exec(stdout);
    // Log lines: client_id transaction_no latency_us script_no epoch_s epoch_us
    const latencies: number[] = [];
    for (const file of readdirSync(dir).filter((f) => f.startsWith('log'))) {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
        const us = Number(line.split(' ')[2]);
        if (Number.isFinite(us) && line) latencies.push(us / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    const aborted = /number of failed transactions: (\d+)/.exec(stdout);
    const errors: Record<string, number> = {};
    if (!tps) errors[`pgbench failed: ${stderr.trim().split('\n').slice(-1)[0]}`] = 1;
    if (aborted && Number(aborted[1]) > 0) errors['failed transactions'] = Number(aborted[1]);
    if (/client \d+ aborted/.test(stderr)) errors['aborted clients'] = (stderr.match(/client \d+ aborted/g) ?? []).length;
    return {
      requestsPerSec: tps ? Number(tps[1]) : 0,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.length ? latencies[latencies.length - 1]! : null,
      errors,
      total: latencies.length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
