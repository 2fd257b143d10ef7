import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from './document.ts';

/** `npm run lint:openapi` writes the document here, then lints it with Redocly. */
const target = process.argv[2] ?? '.data/openapi.json';
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, JSON.stringify(openApiDocument(process.env.PUBLIC_BASE_URL ?? 'http://localhost:8080'), null, 2) + '\n');
