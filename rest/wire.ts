import { z } from 'zod';
import { fieldCodes, refusal, unstorable, fieldName } from '../src/domain/validation.ts';
import { AppError } from '../src/domain/errors.ts';
import type { FieldNamer } from '../src/http/errors.ts';

/**
 * REST speaks the specification's snake_case (`amount_cents`, `payment_details.branch_code`);
 * the domain's inputs are camelCase. `wire(schema)` is the REST form of a domain input schema:
 * the same rules under snake_case names, parsing into the domain's input. The OpenAPI document
 * is written from these same schemas, so what it says is what is checked.
 */

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A domain path as REST names it: `paymentDetails.branchCode` → `payment_details.branch_code`. */
export const restField: FieldNamer = (path) => path.map((p) => (typeof p === 'string' ? snakeCase(p) : p)).join('.');

const wired = new WeakMap<z.ZodType, z.ZodType>();

export function wire<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, unknown> {
  let out = wired.get(schema);
  if (!out) wired.set(schema, (out = rename(schema)));
  return out as z.ZodType<z.output<S>, unknown>;
}

function rename(schema: z.ZodType): z.ZodType {
  let out: z.ZodType;
  if (schema instanceof z.ZodObject) {
    const names = Object.keys(schema.shape);
    const shape = Object.fromEntries(names.map((k) => [snakeCase(k), wire(schema.shape[k] as z.ZodType)]));
    const strict = schema._zod.def.catchall instanceof z.ZodNever;
    let object: z.ZodType = strict ? z.strictObject(shape) : z.looseObject(shape);
    const meta = z.globalRegistry.get(schema);
    if (meta) object = object.meta(meta);
    const toDomain = (value: unknown) => Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [camelOf(names, k), v]));
    out = object.transform(toDomain);
    // Checks on the object as a whole (`email and/or phone`) are the domain schema's: run it on
    // the renamed value too. Its fields are already parsed, and parsing them again changes nothing.
    if (schema._zod.def.checks?.length) out = out.pipe(schema);
  } else if (schema instanceof z.ZodOptional) out = wire(schema.unwrap() as z.ZodType).optional();
  else if (schema instanceof z.ZodNullable) out = wire(schema.unwrap() as z.ZodType).nullable();
  else if (schema instanceof z.ZodDefault) out = wire(schema.unwrap() as z.ZodType).default(schema._zod.def.defaultValue as never);
  else if (schema instanceof z.ZodPipe) out = wire(schema._zod.def.in as z.ZodType).pipe(wire(schema._zod.def.out as z.ZodType) as never);
  else return schema; // a value, a record or a list: its own names are the caller's data
  // What the domain says about a field (description, example) is what the document shows.
  const meta = z.globalRegistry.get(schema);
  if (meta && !(schema instanceof z.ZodObject)) out = out.meta(meta);
  const code = fieldCodes.get(schema);
  if (code) fieldCodes.add(out, code);
  return out;
}

const camelOf = (names: readonly string[], snake: string) => names.find((n) => snakeCase(n) === snake) ?? snake;

/**
 * Parses a REST input (a body or a query) with the wire form of a domain schema. A refusal names
 * fields the REST way and lists every problem; `whole` is what a problem about all of it is called.
 */
export function parseWire<S extends z.ZodType>(schema: S, input: unknown, whole = 'body'): z.output<S> {
  const bad = unstorable(input);
  if (bad) throw new AppError('VALIDATION_FAILED', `${fieldName(bad.path, whole)}: ${bad.why}`);
  const form = wire(schema);
  const result = form.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw refusal(form, result.error.issues, whole);
}
