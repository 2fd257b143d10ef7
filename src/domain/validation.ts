import { z } from 'zod';
import { AppError, type ErrorCode, type ProblemDetail } from './errors.ts';

/**
 * How inputs are checked, for every adapter alike. Input schemas live in the domain (one per use
 * case, camelCase); REST parses its snake_case bodies with a renamed copy of them, GraphQL its
 * arguments with them as they are (through @pothos/plugin-zod). Whatever refused the input, the
 * answer is the same: the contract's error code, every problem in plain words, and the first
 * one as the message.
 */

/** When a field's own contract code applies (CONTRACT §2), rather than VALIDATION_FAILED. */
export interface FieldCode {
  code: ErrorCode;
  /**
   * `value`: the field is present with the right JSON type but its value is refused (`currency`
   * "USD" is INVALID_CURRENCY; a missing or numeric currency is VALIDATION_FAILED).
   * `inside`: a problem inside the field's object (`payment_details.branch_code`).
   */
  applies: 'value' | 'inside';
}

/** The fields that carry a contract code of their own; REST's renamed schemas register theirs too. */
export const fieldCodes = z.registry<FieldCode>();

/** Marks `schema` as a field whose refusals carry `code` (see `FieldCode`). */
export function withCode<S extends z.ZodType>(schema: S, code: ErrorCode, applies: FieldCode['applies'] = 'value'): S {
  fieldCodes.add(schema, { code, applies });
  return schema;
}

/** One step inside a schema: what a property name or index leads to, through wrappers. */
function child(schema: z.ZodType, key: PropertyKey): z.ZodType | undefined {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) return inner.shape[String(key)] as z.ZodType | undefined;
  if (inner instanceof z.ZodRecord) return inner._zod.def.valueType as z.ZodType;
  if (inner instanceof z.ZodArray) return inner.element as z.ZodType;
  return undefined;
}

/** The schema under optional, nullable, default and pipe wrappers (a pipe's object side). */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodPipe) {
      const { in: from, out: to } = s._zod.def;
      s = (to instanceof z.ZodTransform ? from : unwrap(to as z.ZodType) instanceof z.ZodObject ? to : from) as z.ZodType;
    } else return s;
  }
}

/** The code registered on `schema` or on any of its wrappers. */
function codeOf(schema: z.ZodType | undefined): FieldCode | undefined {
  let s = schema;
  while (s) {
    const found = fieldCodes.get(s);
    if (found) return found;
    const next = unwrapOnce(s);
    if (next === s) return undefined;
    s = next;
  }
  return undefined;
}

function unwrapOnce(s: z.ZodType): z.ZodType {
  if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) return s.unwrap() as z.ZodType;
  if (s instanceof z.ZodPipe) return s._zod.def.in as z.ZodType;
  return s;
}

/** A refusal of the value's JSON type (or its absence), as opposed to a refusal of its value. */
const isTypeProblem = (issue: z.core.$ZodIssue) =>
  issue.code === 'invalid_type' && (issue as z.core.$ZodIssueInvalidType).expected !== 'int';

/** The contract code of one problem found by `root` (CONTRACT §2). */
export function contractCode(root: z.ZodType, issue: z.core.$ZodIssue): ErrorCode {
  let schema: z.ZodType | undefined = root;
  for (let i = 0; i < issue.path.length && schema; i++) {
    schema = child(schema, issue.path[i]!);
    const code = codeOf(schema);
    const last = i === issue.path.length - 1;
    if (code?.applies === 'inside' && !last) return code.code;
    if (code?.applies === 'value' && last && !isTypeProblem(issue)) return code.code;
  }
  return 'VALIDATION_FAILED';
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  record: 'an object',
};

/** A problem in plain words, without zod's vocabulary. */
export function plainMessage(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      const { expected } = issue as z.core.$ZodIssueInvalidType;
      if ((issue as { input?: unknown }).input === undefined) return 'is required';
      const input = (issue as { input?: unknown }).input;
      // A field that says why null is refused (absent has a meaning null must not take).
      if (input === null && !issue.message.startsWith('Invalid')) return issue.message;
      if (expected === 'int' && typeof input === 'number' && Number.isInteger(input)) return 'is too large';
      if (expected === 'int') return 'must be a whole number';
      return `must be ${TYPE_NAMES[expected] ?? expected}`;
    }
    case 'unrecognized_keys':
      return `${issue.keys.length === 1 ? 'is not a known field' : 'are not known fields'}: ${issue.keys.join(', ')}`;
    case 'invalid_value':
      return issue.message.startsWith('Invalid') ? `must be one of ${issue.values.map(String).join(', ')}` : issue.message;
    case 'too_big':
      // A whole number past 2^53 (JSON has no limit; exact cents do).
      if (issue.origin === 'int') return 'is too large';
      if (issue.message.startsWith('Too big')) return `must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
      return issue.message;
    case 'too_small':
      if ((issue.origin as string) === 'int') return 'is too small';
      if (issue.message.startsWith('Too small')) return `must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : ''}`;
      return issue.message;
    default:
      return issue.message.startsWith('Invalid') ? 'is not valid' : issue.message;
  }
}

/**
 * How a problem's place is written: `payment_details.branch_code`, `input.amountCents`. A body's
 * fields are named as they are; a query parameter says it is one (`query.limit`), since the same
 * name could be a body field.
 */
export function fieldName(path: readonly PropertyKey[], whole = 'body'): string {
  if (path.length === 0) return whole;
  const name = path.map(String).join('.');
  return whole === 'query' ? `query.${name}` : name;
}

/**
 * A problem's field as its message says it: a top-level field by its name (`amount_cents`), a
 * nested one in words, without GraphQL's argument (`input.paymentDetails.branchCode` and
 * `payment_details.branch_code` both read `payment details, branch code`), so a message shown to
 * a person names no internal path. `details` keep the exact field for programs and forms.
 */
export function fieldInWords(field: string): string {
  const parts = field.split('.');
  if (parts[0] === 'query') return field;
  const inner = parts[0] === 'input' || parts[0] === 'arguments' ? parts.slice(1) : parts;
  if (inner.length <= 1) return field;
  return inner
    .map((p) => (/^\d+$/.test(p) ? `item ${Number(p) + 1}` : p.replace(/([a-z0-9])_(?=[a-z0-9])/g, '$1 ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()))
    .join(', ');
}

/**
 * The refusal of an input that `schema` did not accept: the code of the first problem, its
 * message as `field: problem`, and every problem in `details`. An unrecognised key is named in
 * the field (`body.foo`), so each detail points at one place.
 */
export function refusal(schema: z.ZodType, issues: readonly z.core.$ZodIssue[], whole = 'body'): AppError {
  const details: ProblemDetail[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) details.push({ field: fieldName([...issue.path, key], whole), message: 'is not a known field' });
    } else {
      const detail = { field: fieldName(issue.path, whole), message: plainMessage(issue) };
      // Two checks can refuse a value for one reason (int's safe range and max): say it once.
      if (!details.some((d) => d.field === detail.field && d.message === detail.message)) details.push(detail);
    }
  }
  const first = details[0]!;
  return new AppError(contractCode(schema, issues[0]!), `${fieldInWords(first.field)}: ${first.message}`, { details });
}

const MAX_DEPTH = 32;
// A NUL or an unpaired surrogate cannot be stored in PostgreSQL text or jsonb (the insert fails).
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first place in `value` (keys included) that could not be kept as given, if any: what the
 * database cannot store, and a `__proto__` key. JSON.parse keeps `__proto__` as a key of its own,
 * but every object built from it by assignment (zod's parsed output among them) drops it or turns
 * it into the object's prototype: refused by name rather than silently lost. `constructor` and
 * `prototype` are ordinary keys all the way to the database and back, and are kept.
 */
export function unstorable(value: unknown, path: PropertyKey[] = []): { path: PropertyKey[]; why: string } | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? { path, why: 'must not contain NUL characters or unpaired surrogates' } : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (path.length >= MAX_DEPTH) return { path, why: `is nested more than ${MAX_DEPTH} levels deep` };
  for (const [k, v] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(k) : k];
    if (UNSTORABLE.test(k)) return { path: at, why: 'has a key with NUL characters or unpaired surrogates' };
    if (k === '__proto__') return { path: at, why: 'is not allowed as a key' };
    const found = unstorable(v, at);
    if (found) return found;
  }
  return undefined;
}

/**
 * Parses `input` with `schema`, or throws its refusal (see `refusal`). `whole` names the input
 * as a field when a problem is about all of it.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, whole = 'body'): z.output<S> {
  const bad = unstorable(input);
  if (bad) throw new AppError('VALIDATION_FAILED', `${fieldName(bad.path, whole)}: ${bad.why}`);
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw refusal(schema, result.error.issues, whole);
}

/** A string that must hold something besides white space, trimmed. */
export const nonBlank = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** An optional field: absent and null mean the same (GraphQL sends null for an omitted nullable). */
export const optional = <S extends z.ZodType>(schema: S) =>
  schema
    .nullish()
    .transform((v) => (v ?? undefined) as z.output<S> | undefined)
    .optional();

/** A whole number from a JSON number or, in a query string, its digits. */
export const wholeNumber = z.union([z.number(), z.string().regex(/^-?\d+$/, 'must be a whole number').transform(Number)]);

/**
 * How the OpenAPI document shows a field whose parser is looser than its meaning: a query
 * parameter arrives as a string and is read as a whole number, but clients should see an integer.
 */
export const documentedAs = (jsonSchema: Record<string, unknown>) => ({
  override: ({ jsonSchema: rendered }: { jsonSchema: Record<string, unknown> }) => {
    for (const key of Object.keys(rendered)) if (key !== 'description' && key !== 'example') delete rendered[key];
    Object.assign(rendered, jsonSchema);
  },
});

/** Offset paging (REST lists): `limit` 1..100, default 50; `offset` from 0. */
export const offsetPage = {
  limit: wholeNumber
    .pipe(z.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100'))
    .default(50)
    .meta({ description: 'Page size', example: 20, ...documentedAs({ type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 50 }) }),
  offset: wholeNumber
    .pipe(z.number().int().min(0, 'must not be negative').max(1e9, 'must be at most 1000000000'))
    .default(0)
    .meta({ description: 'How many to skip', example: 0, ...documentedAs({ type: 'integer', format: 'int32', minimum: 0, maximum: 1e9, default: 0 }) }),
};

/**
 * The page arguments of a GraphQL connection: its twin of `limit`, with the same bound. The
 * default (50 rows) is what an omitted `first` and `last` mean.
 */
export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 100;
const pageSize = z.number().int().min(0, `must be 0 to ${PAGE_MAX}`).max(PAGE_MAX, `must be 0 to ${PAGE_MAX}`).nullish();
export const connectionArgs = {
  first: pageSize,
  last: pageSize,
  after: z.string().max(200, 'must be at most 200 characters').nullish(),
  before: z.string().max(200, 'must be at most 200 characters').nullish(),
};

export const reasonSchema = nonBlank(500);
