/**
 * `npx tsx bench/profile-summary.ts bench/results/profile/<file>.cpuprofile [--windows <windows-run.json> --server zarpay --path /graphql --runs 0]`:
 * self time by function and by package (node_modules/<pkg>, zarpay's own dirs, node internals,
 * GC/idle), by layer of a GraphQL request, and inclusive time by function: the views that decide
 * what to optimise first.
 *
 * With --windows (written by `npm run bench -- --profile`), only the samples taken while wrk
 * measured `--server` (and, with --path, only the runs of that path: GraphQL, not its REST twin)
 * count (with --runs, only those of its runs, by their order in the run: one operation's), and
 * every figure is also given in µs of CPU per request answered in those runs.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}
interface Window {
  server: string;
  path: string;
  startUs: number;
  endUs: number;
  requests: number;
}

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { windows: { type: 'string' }, server: { type: 'string', default: 'zarpay' }, path: { type: 'string' }, runs: { type: 'string' }, top: { type: 'string', default: '40' } },
});

function bucket(url: string, fn: string): string {
  if (fn === '(idle)' || fn === '(garbage collector)' || fn === '(program)') return fn;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(src\/[^/]+|rest|bench\/references|bench)\//.exec(url);
  if (own) return `zarpay ${own[1]}`;
  return url ? 'other' : '(native)';
}

/**
 * The layers of a GraphQL request, matched from the sampled frame outwards: a sample belongs to
 * the innermost frame that matches, and native code and node internals count for the code that
 * called them (Array.map for the resolver, crypto's hash for authentication), except socket
 * writes, which are a layer of their own (the syscall, on loopback also the receiver's side). A
 * stack of node internals alone (the event loop, the HTTP parser, stream plumbing) is its own
 * layer too. The first rule that matches a frame wins.
 */
const LAYERS: [string, (url: string, fn: string) => boolean][] = [
  ['scalar and enum serialisation', (u, fn) => fn === 'serialize' || (/\/(graphql|@graphql-tools\/executor)\//.test(u) && fn === 'completeLeafValue')],
  ['Pothos plugin wrappers', (u) => u.includes('/@pothos/')],
  ['graphql-armor rules', (u) => u.includes('/@escape.tech/')],
  // graphql-jit's compiled operations are functions it generated: they have no file of their own.
  ['executor (graphql-jit and its compiled operations, @graphql-tools/executor, graphql-js execution)', (u, fn) => /\/node_modules\/(graphql-jit|@graphql-tools\/(executor|utils)|graphql\/execution)\//.test(u) || (u === '' && /^(query|Query|Mutation|.*Resolver|.*Serializer)/.test(fn))],
  ['graphql-js validate', (u) => u.includes('/node_modules/graphql/validation/')],
  ['graphql-js parse/print', (u) => u.includes('/node_modules/graphql/language/')],
  ['graphql-js types, values, errors', (u) => u.includes('/node_modules/graphql/')],
  ['Yoga and envelop (pipeline, plugins hooks, result stringify)', (u) => /\/node_modules\/(graphql-yoga|@graphql-yoga|@envelop)\//.test(u)],
  ['whatwg-node (Fetch Request/Response, node adapter, promise helpers)', (u) => u.includes('/node_modules/@whatwg-node/')],
  ['dataloader', (u) => u.includes('/node_modules/dataloader/')],
  ['zarpay auth (API key → merchant)', (u) => /\/src\/services\/(keys|key-cache)\.[jt]s$/.test(u)],
  ['zarpay rate limits (plugin, service, limiter)', (u) => /\/src\/(graphql\/rate-limit|services\/rate-limits)\.[jt]s$/.test(u) || u.includes('/node_modules/rate-limiter-flexible/')],
  ['zarpay error and contract-code plugins', (u) => /\/src\/graphql\/(errors|limits)\.[jt]s$/.test(u)],
  ['zarpay Yoga set-up and context (yoga.ts, context.ts)', (u) => /\/src\/graphql\/(yoga|context)\.[jt]s$/.test(u)],
  ['Fastify↔Yoga bridge and the direct path (graphql/http.ts, graphql/direct.ts)', (u) => /\/src\/graphql\/(http|direct)\.[jt]s$/.test(u)],
  ['zarpay resolvers', (u) => u.includes('/src/graphql/')],
  ['zarpay services, domain, db', (u) => /\/src\/(services|domain|db)\//.test(u)],
  ['Kysely', (u) => u.includes('/node_modules/kysely/')],
  ['pg driver', (u) => /\/node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-[a-z]+)\//.test(u)],
  ['logging (pino)', (u) => /\/node_modules\/(pino|sonic-boom|thread-stream|pino-std-serializers)\//.test(u)],
  ['metrics (prom-client)', (u) => u.includes('/node_modules/prom-client/') || /\/src\/metrics\.[jt]s$/.test(u)],
  ["Fastify and zarpay's HTTP hooks (routing, headers, request log line)", (u) => /\/node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fast-json-stringify|fast-querystring|secure-json-parse|content-type|toad-cache|process-warning|abstract-logging)\//.test(u) || /\/(src|rest)\//.test(u)],
  ['reference resolvers', (u) => u.includes('/bench/references/')],
];
const SOCKET_WRITE = /^(writev|writeBuffer|write(Utf8|Latin1|Ascii|Ucs2)String)$/;
const SOCKET_WRITES = 'socket writes (syscall)';

/** The layer a frame puts its sample in; undefined for a frame that counts for its caller. */
function layerOf(url: string, fn: string): string | undefined {
  if (fn === '(garbage collector)') return 'GC';
  if (!url && SOCKET_WRITE.test(fn)) return SOCKET_WRITES;
  // Native code and node's own modules count for the code that called them.
  if (!url || url.startsWith('node:')) return undefined;
  return LAYERS.find(([, match]) => match(url, fn))?.[0] ?? 'other';
}

const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;
// --runs 0,2: only those of the matching runs, in the order they were measured (one operation's).
const runs = args.runs?.split(',').map(Number);
const windows = args.windows
  ? (JSON.parse(readFileSync(args.windows, 'utf8')) as Window[])
      .filter((w) => w.server === args.server && (!args.path || w.path === args.path))
      .filter((_w, k) => !runs || runs.includes(k))
  : null;
if (windows && windows.length === 0) throw new Error(`no measured runs of ${args.server}${args.path ? ` ${args.path}` : ''} in ${args.windows}`);
const requests = windows?.reduce((n, w) => n + w.requests, 0) ?? 0;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
/** Time with at least one frame of the package on the stack (a package calling back into zarpay counts too). */
const inclusive = new Map<string, number>();
const inclusiveByFn = new Map<string, number>();
const selfByFn = new Map<string, number>();
const selfByBucket = new Map<string, number>();
const byLayer = new Map<string, number>();
let total = 0;
const add = (m: Map<string, number>, k: string, dt: number) => m.set(k, (m.get(k) ?? 0) + dt);
const fnName = (f: Node['callFrame']) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|rest|bench)\//, '$1/')}:${f.lineNumber + 1}`;

let at = profile.startTime;
profile.samples.forEach((id, k) => {
  const dt = profile.timeDeltas[k] ?? 0;
  at += dt;
  if (windows && !windows.some((w) => at >= w.startUs && at <= w.endUs)) return;
  const n = byId.get(id)!;
  const { functionName, url } = n.callFrame;
  add(selfByFn, fnName(n.callFrame), dt);
  add(selfByBucket, bucket(url, functionName), dt);
  total += dt;
  if (functionName === '(idle)') return;
  const seen = new Set<string>();
  const seenFn = new Set<string>();
  let layer: string | undefined;
  for (let a: number | undefined = id; a !== undefined; a = parent.get(a)) {
    const f = byId.get(a)!.callFrame;
    if (f.functionName === '(root)') continue;
    seen.add(bucket(f.url, f.functionName));
    if (f.url) seenFn.add(fnName(f));
    const here = layerOf(f.url, f.functionName);
    // A socket write is told apart by who wrote: the HTTP response, or a statement to PostgreSQL.
    if (layer === SOCKET_WRITES && here && here !== SOCKET_WRITES) layer = `${SOCKET_WRITES}, from ${here}`;
    else layer ??= here;
  }
  add(byLayer, layer ?? (functionName === '(program)' ? '(program)' : 'node internals alone (event loop, HTTP parser, streams)'), dt);
  for (const s of seen) add(inclusive, s, dt);
  for (const s of seenFn) add(inclusiveByFn, s, dt);
});
const busy = total - (selfByBucket.get('(idle)') ?? 0);
if (windows) {
  console.log(`${args.server}${args.path ? ` ${args.path}` : ''}: ${windows.length} measured runs, ${requests} requests, ` +
    `${(busy / 1e6).toFixed(1)} s of CPU in them: ${(busy / requests).toFixed(0)} µs a request`);
}
const show = (title: string, m: Map<string, number>, n: number) => {
  console.log(`\n${title} (% of non-idle ${(busy / 1e6).toFixed(1)} s${windows ? '; µs a request' : ''})`);
  [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).forEach(([k, v]) =>
    console.log(`${((100 * v) / busy).toFixed(1).padStart(5)}%${windows ? `${(v / requests).toFixed(1).padStart(8)}` : ''}  ${k}`),
  );
};
selfByBucket.delete('(idle)');
show('By package, self time', selfByBucket, 20);
show('By package, inclusive (stack contains it)', inclusive, 20);
show('By layer of a GraphQL request (self time of the innermost layer on the stack)', byLayer, 25);
show('By function, self time', selfByFn, Number(args.top));
show('By function, inclusive', inclusiveByFn, Number(args.top));
