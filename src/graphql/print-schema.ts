import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from './schema.ts';

/** Where `npm run schema` writes the published schema: the repository root. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schema.graphql', import.meta.url));

/** The schema as committed in `schema.graphql`: printed from the lexicographically sorted schema. */
export function printedSchema(): string {
  return printSchema(schema) + '\n';
}

// `npm run schema`
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  writeFileSync(SCHEMA_FILE, printedSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
