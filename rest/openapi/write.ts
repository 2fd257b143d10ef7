import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from './document.ts';

/**
 * `npm run lint:openapi` writes the document here, then lints it with Redocly and Spectral. It is
 * the document a production deployment serves (https, `prd`): the one the linters should judge.
 */
const target = process.argv[2] ?? '.data/openapi.json';
mkdirSync(dirname(target), { recursive: true });
const document = openApiDocument(process.env.PUBLIC_BASE_URL ?? 'https://zarpay.example', 'prd');
writeFileSync(target, JSON.stringify(document, null, 2) + '\n');
