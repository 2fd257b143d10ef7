/**
 * `npx tsx bench/profile-summary.ts bench/results/profile/<file>.cpuprofile`: self time by
 * function and by package (node_modules/<pkg>, zarpay's own dirs, node internals, GC/idle), the
 * view that decides what to optimise first.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function bucket(url: string, fn: string): string {
  if (fn === '(idle)' || fn === '(garbage collector)' || fn === '(program)') return fn;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(src\/[^/]+|rest|bench)\//.exec(url);
  if (own) return `zarpay ${own[1]}`;
  return url ? 'other' : '(native)';
}

const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
/** Time with at least one frame of the package on the stack (a package calling back into zarpay counts too). */
const inclusive = new Map<string, number>();
const selfByFn = new Map<string, number>();
const selfByBucket = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, k) => {
  const dt = profile.timeDeltas[k] ?? 0;
  const n = byId.get(id)!;
  const { functionName, url, lineNumber } = n.callFrame;
  const fn = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|rest|bench)\//, '$1/')}:${lineNumber + 1}`;
  selfByFn.set(fn, (selfByFn.get(fn) ?? 0) + dt);
  const b = bucket(url, functionName);
  selfByBucket.set(b, (selfByBucket.get(b) ?? 0) + dt);
  total += dt;
  if (functionName === '(idle)') return;
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const f = byId.get(at)!.callFrame;
    if (f.functionName !== '(root)') seen.add(bucket(f.url, f.functionName));
  }
  for (const s of seen) inclusive.set(s, (inclusive.get(s) ?? 0) + dt);
});
const busy = total - (selfByBucket.get('(idle)') ?? 0);
const show = (title: string, m: Map<string, number>, n: number) => {
  console.log(`\n${title} (self time; % of non-idle ${(busy / 1e6).toFixed(1)} s)`);
  [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).forEach(([k, v]) => console.log(`${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`));
};
selfByBucket.delete('(idle)');
show('By package', selfByBucket, 20);
show('By package, inclusive (stack contains it)', inclusive, 20);
show('By function', selfByFn, 30);
