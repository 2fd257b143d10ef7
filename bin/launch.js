// How zarpay's entry points run: compiled (`npm run build`, which `npm install` runs too) when
// build/ is at least as new as every source file, and otherwise the TypeScript itself through
// the tsx loader, in this same process. A checkout being edited always runs what it says; an
// installed one starts in a fraction of the time; and a signal sent to this process reaches the
// service itself, with no wrapper process between them.
import { readdirSync, statSync } from 'node:fs';
import module from 'node:module';

const root = new URL('../', import.meta.url);

/** The oldest Node.js line zarpay runs on (package.json `engines`). */
const OLDEST_MAJOR = 22;

/** The newest modification time under these directories (a few hundred files: about a millisecond). */
function newest(dirs) {
  let latest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = new URL(entry.name + (entry.isDirectory() ? '/' : ''), dir);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) latest = Math.max(latest, statSync(path).mtimeMs);
    }
  };
  for (const dir of dirs) walk(new URL(dir, root));
  return latest;
}

function isFresh(compiled) {
  try {
    return statSync(compiled).mtimeMs >= newest(['src/', 'rest/', 'migrations/']);
  } catch {
    return false;
  }
}

/** Refuses, in one line, a Node.js older than zarpay supports. */
export function requireSupportedNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < OLDEST_MAJOR) {
    process.stderr.write(`zarpay: Node.js ${process.versions.node} is not supported; use Node.js 22 (22.15 or newer) or 24 (see .nvmrc)\n`);
    process.exit(1);
  }
}

/** Runs `src/<path>.ts`: its compiled twin when fresh, else the source through tsx. */
export async function launch(path) {
  requireSupportedNode();
  // V8's code cache for every module loaded from here on (Node's own, in the system's temporary
  // directory): the second start skips compiling the dependencies' JavaScript again.
  module.enableCompileCache?.();
  const compiled = new URL(`build/src/${path}.js`, root);
  if (process.env.ZARPAY_FROM_SOURCE !== '1' && isFresh(compiled)) {
    await import(compiled.href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import(new URL(`src/${path}.ts`, root).href);
  }
}
