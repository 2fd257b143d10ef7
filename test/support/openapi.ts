import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { HttpResult } from './client.ts';

/**
 * Checks real responses against the served OpenAPI document and records which
 * (operation, status) pairs the suite has exercised.
 */
export function openApiChecker(doc: any) {
  const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true });
  (addFormats as unknown as typeof addFormats.default)(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const seen = new Set<string>();
  const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

  return {
    seen,
    /** Every (operation, status) the document lists. */
    documented(): string[] {
      return Object.entries(doc.paths).flatMap(([path, methods]: [string, any]) =>
        Object.entries(methods).flatMap(([method, op]: [string, any]) => Object.keys(op.responses).map((status) => `${method.toUpperCase()} ${path} ${status}`)),
      );
    },
    check(method: string, path: string, res: HttpResult) {
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, `${method} ${path} is documented`).toBeDefined();
      const status = String(res.status);
      expect(Object.keys(op.responses), `${method} ${path} documents ${status}`).toContain(status);
      const ref = `openapi.json#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
      const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
      const ok = validate(res.body);
      expect(ok, `${method} ${path} ${status}: ${JSON.stringify(validate.errors)} for ${JSON.stringify(res.body)}`).toBe(true);
      // Headers the service sends are documented for that answer (none is promised where absent).
      const documentedHeaders = Object.keys(op.responses[status].headers ?? {}).map((h) => h.toLowerCase());
      for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) {
        if (res.headers.has(header)) expect(documentedHeaders, `${method} ${path} ${status} documents ${header}`).toContain(header);
      }
      seen.add(`${method.toUpperCase()} ${path} ${status}`);
    },
    /** Whether `value` is what the document publishes as the component schema `name`. */
    published: (name: string, value: unknown): boolean => ajv.getSchema(`openapi.json#/components/schemas/${name}`)!(value) as boolean,
  };
}
