// `npm install` (postinstall): links node_modules/.bin/zarpay to bin/zarpay.js, so that `npx zarpay`
// finds the checkout's own CLI there and runs it at once. The project has no `bin` entry on
// purpose: for a command named in the `bin` of the package.json it stands in, npm's exec installs
// that package into its own cache as a dependency, packing the checkout first, which reruns
// `prepare` (the dashboard and a whole build, rewriting build/ under a running service): 20 s and
// more of silence on the first call, and a second or more of tree reading on every later one.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';

const bin = new URL('../node_modules/.bin/', import.meta.url);
const link = new URL('zarpay', bin);
mkdirSync(bin, { recursive: true });
rmSync(link, { force: true });
symlinkSync('../../bin/zarpay.js', link);
