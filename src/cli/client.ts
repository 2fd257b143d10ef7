import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, OPERATOR_TOKEN_FILE, serviceUrl } from '../paths.ts';
import { OPERATOR_NAME } from '../domain/actor.ts';

/** A failure the CLI reports as `{code, message}` on stderr with exit status 1. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Target {
  url: string;
  token: string;
  /** Who runs the command, for the audit log: ZARPAY_OPERATOR, else the login name. */
  operator?: string;
}

/**
 * Where the service is and the operator token: `ZARPAY_URL` (else `http://localhost:$PORT`) and
 * `OPERATOR_TOKEN`, or the token a `tst`/`dev` service generated under `DATA_DIR` (by default
 * `.data` in the project root, wherever the CLI is run from).
 */
export function resolveTarget(env: NodeJS.ProcessEnv = process.env): Target {
  const url = serviceUrl(env);
  let token = env.OPERATOR_TOKEN;
  if (!token) {
    const file = join(dataDir(env), OPERATOR_TOKEN_FILE);
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch {
      throw new CliError('UNAUTHORIZED', `OPERATOR_TOKEN is not set and ${file} does not exist (start the service in tst or dev once, or set OPERATOR_TOKEN)`);
    }
  }
  const operator = (env.ZARPAY_OPERATOR || env.USER || env.LOGNAME || '').trim();
  return { url, token, ...(operator && { operator }) };
}

/**
 * How the command's GraphQL variables and input fields are called on the command line, so a
 * refusal speaks of `--limit` and `<payout-id>`, never of `$n` or `input.payoutFeeCents`.
 */
export type FlagNames = Record<string, string>;

interface GraphQLError {
  message: string;
  extensions?: { code?: string };
}

/** One operator GraphQL request; errors become CliErrors with the REST code, in the language of flags. */
export async function graphql<T = any>(target: Target, query: string, variables: Record<string, unknown> = {}, flags: FlagNames = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${target.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${target.token}`,
        ...(target.operator && OPERATOR_NAME.test(target.operator) && { 'x-operator-name': target.operator }),
      },
      body: JSON.stringify({ query, variables }),
    });
  } catch (e) {
    throw new CliError('SERVICE_UNAVAILABLE', `cannot reach zarpay at ${target.url}: ${(e as Error).cause ?? (e as Error).message} (is it running? ZARPAY_URL says where)`);
  }
  const text = await response.text();
  let body: { data?: T; errors?: GraphQLError[]; status?: string; error?: { code?: string; message?: string } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new CliError(response.status >= 500 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR', `unexpected ${response.status} answer from ${target.url}/graphql (is ZARPAY_URL a zarpay service?)`);
  }
  // Refused before GraphQL ran (HTTPS required in prd, a proxy, a rate limit): the REST envelope.
  if (body.status === 'error' && body.error) throw new CliError(body.error.code ?? 'INTERNAL_ERROR', body.error.message ?? `${response.status}`);
  const error = body.errors?.[0];
  if (error) throw new CliError(error.extensions?.code ?? 'VALIDATION_FAILED', inFlagLanguage(error.message, flags));
  if (!body.data) throw new CliError('INTERNAL_ERROR', `no data in the ${response.status} answer from ${target.url}/graphql`);
  return body.data;
}

/**
 * One POST of raw bytes to an operator REST route (`/api/v1/operator/...`): for what is larger than
 * a GraphQL request may be (a bank's report). The answer's `data`; a refusal becomes a CliError.
 */
export async function operatorPost<T = any>(target: Target, path: string, body: Uint8Array, headers: Record<string, string>): Promise<T> {
  const url = `${target.url}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        ...headers,
        authorization: `Bearer ${target.token}`,
        ...(target.operator && OPERATOR_NAME.test(target.operator) && { 'x-operator-name': target.operator }),
      },
      body: new Uint8Array(body),
    });
  } catch (e) {
    throw new CliError('SERVICE_UNAVAILABLE', `cannot reach zarpay at ${target.url}: ${(e as Error).cause ?? (e as Error).message} (is it running? ZARPAY_URL says where)`);
  }
  let answer: { status?: string; data?: T; error?: { code?: string; message?: string } };
  try {
    answer = (await response.json()) as typeof answer;
  } catch {
    throw new CliError(response.status >= 500 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR', `unexpected ${response.status} answer from ${url} (is ZARPAY_URL a zarpay service?)`);
  }
  if (answer.status === 'success' && answer.data !== undefined) return answer.data;
  throw new CliError(answer.error?.code ?? 'INTERNAL_ERROR', answer.error?.message ?? `${response.status} from ${url}`);
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * A GraphQL error message as the operator typed the command: `Variable "$id" got invalid value
 * "abc"; …` becomes `<payout-id>: "abc" is not valid`, `input.payoutFeeCents: …` becomes
 * `--payout-fee-cents: …`.
 */
export function inFlagLanguage(message: string, flags: FlagNames): string {
  const variable = /^Variable "\$(\w+)" got invalid value (.*?)(?:;|$)/.exec(message);
  if (variable) {
    const [, name, value] = variable as unknown as [string, string, string];
    const flag = flags[name] ?? `--${kebab(name)}`;
    const expected = /Expected type "(\w+)"/.exec(message)?.[1];
    const what = expected === 'UUID' ? 'must be an id such as 3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11' : expected ? `is not a valid ${expected}` : 'is not valid';
    return `${flag}: ${value} ${what}`;
  }
  const field = /^(?:input\.)?([A-Za-z]+)((?:\.[\w.]+)?): (.*)$/s.exec(message);
  if (field) {
    const [, name, rest, problem] = field as unknown as [string, string, string, string];
    const flag = flags[name] ?? (message.startsWith('input.') ? `--${kebab(name)}` : undefined);
    if (flag) return `${flag}${rest}: ${problem}`;
  }
  return message;
}

const ENUM_KEYS = new Set(['status', 'payoutMethod']);
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * GraphQL's camelCase objects in the REST shape (CONTRACT §7: snake_case, lower-case enum
 * values, optional members left out when null).
 */
export function restShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restShape);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null) continue;
    if (k === 'metadata') out[k] = v;
    else out[snake(k)] = ENUM_KEYS.has(k) && typeof v === 'string' ? v.toLowerCase() : restShape(v);
  }
  return out;
}
