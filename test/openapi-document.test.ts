import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, clientTypes } from '../rest/openapi/client-types.ts';

/**
 * The OpenAPI document without a server: the committed client types (rest/openapi/zarpay-api.d.ts)
 * are what a merchant generates from it, field by field: names, types, formats, descriptions,
 * examples. A change to a schema in src/domain that the document shows fails here until
 * `npm run client-types` writes it down (and `npm run mutate` runs this file for that reason).
 */
describe('the OpenAPI document', () => {
  it('gives exactly the committed client types (npm run client-types)', async () => {
    expect(await clientTypes()).toBe(readFileSync(CLIENT_TYPES_FILE, 'utf8'));
  });
});
