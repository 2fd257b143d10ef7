import { readFileSync } from 'node:fs';
import type { IntervalHistogram } from 'node:perf_hooks';
import type { Outcome } from './http.ts';
import { RSS_LIMIT_MIB } from './checks.ts';
import type { Instance } from './instances.ts';
import type { Receipt } from './receiver.ts';

/** Nearest-rank percentile of sorted numbers. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const ms = (n: number) => (Number.isNaN(n) ? '–' : n < 10 ? n.toFixed(1) : n.toFixed(0));

/** A plain text table, columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => (r[k] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, k) => (k === 0 ? c.padEnd(widths[k]!) : c.padStart(widths[k]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** Outcomes by their status and code, most frequent first: `200 ok 5120, 429 RATE_LIMIT_EXCEEDED 12`. */
function outcomesOf(list: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of list) {
    const key = `${o.status || 'no answer'} ${o.code}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
}

function byKind(list: Outcome[]) {
  const kinds = new Map<string, Outcome[]>();
  for (const o of list) {
    const same = kinds.get(o.kind);
    if (same) same.push(o);
    else kinds.set(o.kind, [o]);
  }
  return [...kinds].sort(([a], [b]) => a.localeCompare(b));
}

/** Requests per side, merchant latency (overall and per kind), and every kind's outcomes. */
export function requestFigures(outcomes: Outcome[], loadMs: number): string[] {
  const lines: string[] = [];
  const sides = ['merchant', 'operator', 'customer', 'abuse'] as const;
  lines.push(
    ...table(
      ['side', 'requests', 'per s', 'answered', 'p50 ms', 'p99 ms'],
      sides.map((side) => {
        const list = outcomes.filter((o) => o.side === side);
        const answered = list.filter((o) => o.status > 0).map((o) => o.ms).sort((a, b) => a - b);
        return [side, String(list.length), (list.length / (loadMs / 1000)).toFixed(1), String(answered.length), ms(percentile(answered, 50)), ms(percentile(answered, 99))];
      }),
    ),
  );
  for (const side of sides) {
    lines.push('', `${side} requests by kind (latency of answered requests):`);
    lines.push(
      ...table(
        ['kind', 'n', 'p50 ms', 'p99 ms', 'outcomes'],
        byKind(outcomes.filter((o) => o.side === side)).map(([kind, list]) => {
          const answered = list.filter((o) => o.status > 0).map((o) => o.ms).sort((a, b) => a - b);
          return [kind, String(list.length), ms(percentile(answered, 50)), ms(percentile(answered, 99)), outcomesOf(list)];
        }),
      ),
    );
  }
  return lines;
}

/** Each instance's RSS over the run: at its start, then every tenth of the load, and its peak. */
export function rssFigures(instances: Instance[], loadFrom: number, loadMs: number): string[] {
  const marks = Array.from({ length: 11 }, (_, k) => loadFrom + (k * loadMs) / 10);
  const header = ['instance', ...marks.map((_, k) => `${k * 10}%`), 'peak', 'VmHWM'];
  const rows = instances.map((i) => {
    const samples = i.incarnations.flatMap((inc) => inc.rss);
    const at = (t: number) => {
      let best: { at: number; mib: number } | undefined;
      for (const s of samples) if (s.at <= t + 1_000 && (!best || Math.abs(s.at - t) < Math.abs(best.at - t))) best = s;
      return best ? best.mib.toFixed(0) : '–';
    };
    const peak = Math.max(0, ...samples.map((s) => s.mib));
    const hwm = Math.max(0, ...i.incarnations.map((inc) => inc.hwmMiB));
    return [i.name, ...marks.map(at), peak.toFixed(1), hwm.toFixed(1)];
  });
  return ['RSS in MiB (VmRSS sampled every second; the killed instance restarts at about 33%):', ...table(header, rows), ...rssTrends(instances, loadFrom, loadFrom + loadMs)];
}

/**
 * How fast each process's RSS grew under the load: the least-squares slope of its samples from a
 * minute into the load (or its start) to the load's end, for processes with at least two minutes
 * of them. A leak shows here long before it reaches a limit; so does warm-up (V8's heap grows
 * towards its cap before it collects hard), hence a run without abuse to compare with.
 */
function rssTrends(instances: Instance[], loadFrom: number, loadTo: number): string[] {
  const lines: string[] = [];
  for (const i of instances) {
    i.incarnations.forEach((inc, k) => {
      const from = Math.max(loadFrom, inc.startedAt) + 60_000;
      const samples = inc.rss.filter((s) => s.at >= from && s.at <= loadTo);
      if (samples.length < 120) return;
      const n = samples.length;
      const mx = samples.reduce((a, s) => a + s.at, 0) / n;
      const my = samples.reduce((a, s) => a + s.mib, 0) / n;
      const slope = samples.reduce((a, s) => a + (s.at - mx) * (s.mib - my), 0) / samples.reduce((a, s) => a + (s.at - mx) ** 2, 0);
      const perMinute = slope * 60_000;
      const last = samples.at(-1)!.mib;
      const until = perMinute > 0.1 ? `, ${RSS_LIMIT_MIB} MiB in about ${((RSS_LIMIT_MIB - last) / perMinute).toFixed(0)} more minutes at that pace` : '';
      lines.push(`  ${i.name}#${k + 1}: ${perMinute >= 0 ? '+' : ''}${perMinute.toFixed(2)} MiB/min over ${((samples.at(-1)!.at - samples[0]!.at) / 60_000).toFixed(1)} min${until}`);
    });
  }
  return lines.length ? ['RSS trend under load (least squares, from a minute in):', ...lines] : [];
}

/** From each event's commit to the receiver's first POST of it. */
export function webhookFigures(receipts: Receipt[], createdAt: Map<string, number>): string[] {
  const first = new Map<string, number>();
  for (const r of receipts) if (!first.has(r.id)) first.set(r.id, r.at);
  const lags = [...first].flatMap(([id, at]) => (createdAt.has(id) ? [at - createdAt.get(id)!] : [])).sort((a, b) => a - b);
  return [`webhook delivery, event commit to first receipt: p50 ${ms(percentile(lags, 50))} ms, p99 ${ms(percentile(lags, 99))} ms, max ${ms(lags.at(-1) ?? Number.NaN)} ms over ${lags.length} events`];
}

/** The instances' warnings and errors (pino levels 40 and up) by message, from their logs. */
export function logFigures(instances: Instance[]): string[] {
  const lines = ['instances\' log lines at warn and above, by message:'];
  for (const i of instances) {
    const counts = new Map<string, number>();
    for (const line of readFileSync(i.logPath, 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: string | { message?: string } };
        if ((entry.level ?? 0) < 40) continue;
        // The cause, when the line has one ("sorry, too many clients already"), tells the machine's trouble from the service's.
        const cause = typeof entry.err === 'string' ? entry.err : entry.err?.message;
        const key = `${entry.level === 40 ? 'warn' : entry.level === 50 ? 'error' : 'fatal'} "${entry.msg ?? ''}${cause ? `: ${cause.slice(0, 80)}` : ''}"`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      } catch {
        // a line cut short by kill -9
      }
    }
    const sorted = [...counts].sort((a, b) => b[1] - a[1]);
    lines.push(`  ${i.name}: ${sorted.length ? sorted.map(([k, n]) => `${n} × ${k}`).join(', ') : 'none'}`);
  }
  return lines;
}

/**
 * What the machine was doing: the 1-minute load average over the run (the soak shares the machine
 * with whatever else runs), the soak's own event-loop delay (a late soak sends late and measures
 * late), the CPU time of each instance's processes, and PostgreSQL's connections (a server
 * shared with other work can run out of them).
 */
export interface MachineSamples {
  /** The 1-minute load average, every second. */
  loadAverages: number[];
  loopDelay: IntervalHistogram;
  /** PostgreSQL's connections, every 5 s: all of them, and the soak's database's. */
  connections: { total: number; ours: number }[];
  maxConnections: number;
}

export function machineFigures({ loadAverages, loopDelay, connections, maxConnections }: MachineSamples, instances: Instance[], loadMs: number, cpus: number): string[] {
  const sorted = [...loadAverages].sort((a, b) => a - b);
  const cpu = instances.map((i) => {
    const seconds = i.incarnations.reduce((n, inc) => n + inc.cpuSeconds, 0);
    return `${i.name} ${seconds.toFixed(0)} s (${((100 * seconds) / (loadMs / 1000)).toFixed(0)} % of a CPU over the load)`;
  });
  return [
    `machine: ${cpus} CPUs; 1-minute load average during the run min ${sorted[0]?.toFixed(1) ?? '–'}, median ${percentile(sorted, 50).toFixed(1)}, max ${sorted.at(-1)?.toFixed(1) ?? '–'}` +
      (percentile(sorted, 50) > cpus ? ' (busier than its CPUs: latencies, and timeouts, are partly the machine\'s)' : ''),
    `the soak's own event-loop delay: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms`,
    `CPU time of the instances (every process of each, from start-up): ${cpu.join(', ')}`,
    `PostgreSQL client connections (every 5 s): peak ${Math.max(0, ...connections.map((c) => c.total))} of max_connections ${maxConnections}, ` +
      `the soak's database peak ${Math.max(0, ...connections.map((c) => c.ours))} (beyond max_connections PostgreSQL refuses: "sorry, too many clients already")`,
  ];
}
