import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { outputIntrospectionFile } from '@gql.tada/internal';
import { build } from 'esbuild';
import { buildSchema, introspectionFromSchema } from 'graphql';

/**
 * Builds the merchant dashboard (`npm install` runs this through `prepare`): the typed documents'
 * introspection from schema.graphql (gql.tada reads it), then one bundle of the application and
 * its style sheet, named by content hash, and the page that loads them, into build/dashboard/.
 * Each asset gets its brotli (`.br`) and gzip (`.gz`) copy beside it, compressed once here at the
 * highest levels, so the service hands a browser the smallest its Accept-Encoding takes without
 * compressing anything per request. The service serves those files itself: nothing is fetched
 * from anywhere at run time.
 */
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const out = join(root, 'build', 'dashboard');

const started = Date.now();
const schema = buildSchema(readFileSync(join(root, 'schema.graphql'), 'utf8'));
writeFileSync(join(here, 'src', 'graphql-env.d.ts'), outputIntrospectionFile(introspectionFromSchema(schema), { fileType: '.d.ts' }));

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });
const result = await build({
  entryPoints: [join(here, 'src', 'main.tsx')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  write: false,
  outdir: join(out, 'assets'),
  logLevel: 'warning',
  legalComments: 'none',
});
/** An asset, with its brotli and gzip copies (`<name>.br`, `<name>.gz`). */
function asset(name: string, contents: Uint8Array) {
  const path = join(out, 'assets', name);
  writeFileSync(path, contents);
  writeFileSync(`${path}.br`, brotliCompressSync(contents, { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: contents.length } }));
  writeFileSync(`${path}.gz`, gzipSync(contents, { level: constants.Z_BEST_COMPRESSION }));
}

const names: Record<string, string> = {};
for (const file of result.outputFiles) {
  const ext = file.path.endsWith('.css') ? 'css' : 'js';
  const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 12);
  names[ext] = `app-${hash}.${ext}`;
  asset(names[ext], file.contents);
}
const css = readFileSync(join(here, 'src', 'style.css'));
names.css = `style-${createHash('sha256').update(css).digest('hex').slice(0, 12)}.css`;
asset(names.css, css);
writeFileSync(
  join(out, 'index.html'),
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="zarpay merchant dashboard: payments, payouts, webhooks, API keys and people.">
<title>zarpay dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/assets/${names.css}">
<script type="module" src="/dashboard/assets/${names.js}"></script>
</head>
<body>
<div id="app"><main><p>Loading…</p><noscript>The dashboard needs JavaScript.</noscript></main></div>
</body>
</html>
`,
);
console.log(`dashboard built in ${Date.now() - started} ms: build/dashboard/ (${names.js}, ${names.css})`);
