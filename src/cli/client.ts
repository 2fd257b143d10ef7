import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { OPERATOR_TOKEN_FILE } from '../config.ts';

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
}

/**
 * Where the service is and the operator token: `ZARPAY_URL` and `OPERATOR_TOKEN`, or the token
 * a `tst`/`dev` service generated under `DATA_DIR`.
 */
export function resolveTarget(env: NodeJS.ProcessEnv = process.env): Target {
  const url = (env.ZARPAY_URL || 'http://localhost:8080').replace(/\/+$/, '');
  let token = env.OPERATOR_TOKEN;
  if (!token) {
    const file = join(resolve(env.DATA_DIR || '.data'), OPERATOR_TOKEN_FILE);
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch {
      throw new CliError('UNAUTHORIZED', `OPERATOR_TOKEN is not set and ${file} does not exist`);
    }
  }
  return { url, token };
}

/** One operator GraphQL request; GraphQL errors become CliErrors with the REST code. */
export async function graphql<T = any>(target: Target, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${target.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
      body: JSON.stringify({ query, variables }),
    });
  } catch (e) {
    throw new CliError('SERVICE_UNAVAILABLE', `cannot reach zarpay at ${target.url}: ${(e as Error).cause ?? (e as Error).message}`);
  }
  let body: { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new CliError('INTERNAL_ERROR', `unexpected ${response.status} response from ${target.url}/graphql`);
  }
  const error = body.errors?.[0];
  if (error) throw new CliError(error.extensions?.code ?? 'INTERNAL_ERROR', error.message);
  if (!body.data) throw new CliError('INTERNAL_ERROR', `empty response (${response.status})`);
  return body.data;
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
