import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where zarpay's own files are, with no dependencies (the CLI reads this before anything else).
 * The project root is the nearest directory above this file holding package.json: the checkout
 * under `npm start`, and the same checkout for the compiled `build/src/`.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** `DATA_DIR`, relative to the current directory when given, else `.data` in the project root. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATA_DIR ? resolve(env.DATA_DIR) : join(PROJECT_ROOT, '.data');
}

/** The file a `tst`/`dev` service writes its generated operator token to, under `DATA_DIR`. */
export const OPERATOR_TOKEN_FILE = 'operator-token';

/** Where the service is for its clients: `ZARPAY_URL`, else this machine on `PORT` (8080). */
export function serviceUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.ZARPAY_URL || `http://localhost:${env.PORT || '8080'}`).replace(/\/+$/, '');
}
