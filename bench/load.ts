import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const WRK = '/usr/bin/wrk';

/** One measured run of a load generator against one target, in the shape the report prints. */
export interface Measurement {
  requestsPerSec: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  /** Responses by error code (envelope `error.code`, GraphQL `extensions.code`, or `HTTP <status>`). */
  errors: Record<string, number>;
  total: number;
}

/**
 * A measured run: which server, when (CLOCK_MONOTONIC µs, the clock of V8's CPU profiles, so a
 * profile can be cut to the runs that measured it) and how many requests it answered.
 */
export interface LoadWindow {
  url: string;
  path: string;
  startUs: number;
  endUs: number;
  requests: number;
}

/** Every measured run of this process, in order (warm-ups excluded); --profile writes them out. */
export const loadWindows: LoadWindow[] = [];

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSec: number;
  /**
   * The i-th request; wrk cycles through the first `distinct` of them, each thread from its own
   * offset, so ids and keys rotate over the seed.
   */
  request: (i: number) => LoadRequest;
  distinct?: number;
  /** Read response bodies for error codes (writes, GraphQL); otherwise only statuses count. */
  inspectBodies?: boolean;
  /**
   * An unmeasured run first, so the measured one meets compiled code and warm caches; its
   * requests are the next `distinct` after the measured run's (new ids stay new).
   */
  warmupSec?: number;
  /** This run is a warm-up: not recorded in `loadWindows`. */
  isWarmup?: boolean;
}

// Requests are written out beforehand and read by each wrk thread in init(). In `response`,
// an error's code comes from the body: REST `"code":"X"`, GraphQL `"extensions":{"code":"X"}`.
const LUA = (inspect: boolean) => `
local requests, count, i = {}, 0, 0
errors = {}
function init(args)
  for line in io.lines(args[1]) do
    local method, path, headers, body = line:match("^([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t(.*)$")
    local h = {}
    for k, v in headers:gmatch("([^\\1\\2]+)\\2([^\\1]*)") do h[k] = v end
    if body == "" then body = nil end
    count = count + 1
    requests[count] = wrk.format(method, path, h, body)
  end
  -- Each thread starts elsewhere in the list (setup gave it its number).
  i = ((offset or 0) * math.floor(count / 2)) % count
end
function request()
  i = i % count + 1
  return requests[i]
end
${inspect ? `function response(status, headers, body)
  if status >= 300 or body:find('"error', 1, true) then
    local code = body:match('"code":"([%w_]+)"') or ("HTTP " .. status)
    errors[code] = (errors[code] or 0) + 1
  end
end` : '-- No response(): wrk then skips handing bodies to Lua, and counts non-2xx itself.'}
local threads = {}
function setup(thread)
  thread:set("offset", #threads)
  table.insert(threads, thread)
end
function done(summary, latency, requests)
  local all = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("errors")) do all[k] = (all[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(all) do table.insert(parts, string.format('%q:%d', k, v)) end
  local e = summary.errors
  local socket = e.connect + e.read + e.write + e.timeout
  io.write(string.format('\\nRESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"socket_errors":%d,"errors":{%s}}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max, socket, table.concat(parts, ",")))
end
`;

/** Fails with a clear message when Debian's wrk is not installed. */
export function assertWrk() {
  if (!existsSync(WRK)) throw new Error(`the benchmark drives load with wrk: install it (apt-get install wrk); ${WRK} not found`);
}

/**
 * Drives `options.url` with wrk (C, two threads, keep-alive connections) for a fixed duration:
 * a closed loop, so p50 ≈ connections ÷ req/s. wrk costs the machine a fraction of what a
 * Node.js load generator would (on the bench machine ~40 µs of CPU a request against ~150),
 * which leaves the CPU to the servers and the database being compared.
 */
export async function load(options: LoadOptions): Promise<Measurement> {
  const distinct = options.distinct ?? 2000;
  if (options.warmupSec) {
    await load({ ...options, warmupSec: 0, durationSec: options.warmupSec, isWarmup: true, request: (i) => options.request(i + distinct) });
  }
  const dir = mkdtempSync(join(tmpdir(), 'zarpay-wrk-'));
  try {
    const lines: string[] = [];
    for (let i = 0; i < distinct; i++) {
      const r = options.request(i);
      const headers = { ...(r.body !== undefined && { 'content-type': 'application/json' }), ...r.headers };
      const h = Object.entries(headers).map(([k, v]) => `${k}\x02${v}`).join('\x01');
      if ([r.path, h, r.body ?? ''].some((s) => /[\t\n]/.test(s))) throw new Error('a bench request may not contain tabs or newlines');
      lines.push(`${r.method ?? 'GET'}\t${r.path}\t${h}\t${r.body ?? ''}`);
    }
    writeFileSync(join(dir, 'requests.tsv'), lines.join('\n') + '\n');
    writeFileSync(join(dir, 'load.lua'), LUA(options.inspectBodies ?? false));
    const args = [
      '-t', '2', '-c', String(Math.max(2, options.connections)), '-d', `${options.durationSec}s`, '--timeout', '30s',
      '-s', join(dir, 'load.lua'), options.url, '--', join(dir, 'requests.tsv'),
    ];
    const startUs = monotonicUs();
    const { stdout } = await run(WRK, args, { maxBuffer: 16 * 1024 * 1024 });
    const endUs = monotonicUs();
    const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
    const r = JSON.parse(line.slice('RESULT '.length)) as {
      requests: number; duration_us: number; p50_us: number; p99_us: number; max_us: number; socket_errors: number; errors: Record<string, number>;
    };
    if (!options.isWarmup) loadWindows.push({ url: options.url, path: options.request(0).path, startUs, endUs, requests: r.requests });
    const errors = { ...r.errors };
    const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
    if (non2xx && !options.inspectBodies) errors['HTTP non-2xx'] = Number(non2xx[1]);
    if (r.socket_errors > 0) errors['socket error/timeout'] = r.socket_errors;
    return {
      requestsPerSec: r.requests / (r.duration_us / 1e6),
      p50: r.p50_us / 1000,
      p99: r.p99_us / 1000,
      max: r.max_us / 1000,
      errors,
      total: r.requests,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs each measurement `rounds` times, taking turns (a, b, c, a, b, c…), and keeps the median
 * round of each (by req/s): a slow spell of the shared machine then touches every side alike,
 * and one bad round does not decide a ratio. `run(round)` must measure a new round each call.
 */
export async function interleaved<K extends string>(
  rounds: number,
  runs: Record<K, (round: number) => Promise<Measurement>>,
): Promise<Record<K, Measurement>> {
  const seen = Object.fromEntries(Object.keys(runs).map((k) => [k, [] as Measurement[]])) as Record<K, Measurement[]>;
  for (let round = 0; round < rounds; round++) {
    for (const k of Object.keys(runs) as K[]) seen[k].push(await runs[k](round));
  }
  const median = (ms: Measurement[]) => [...ms].sort((a, b) => a.requestsPerSec - b.requestsPerSec)[Math.floor(ms.length / 2)]!;
  return Object.fromEntries(Object.entries(seen).map(([k, ms]) => [k, median(ms as Measurement[])])) as Record<K, Measurement>;
}
