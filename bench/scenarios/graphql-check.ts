import { isDeepStrictEqual } from 'node:util';
import type { BenchContext } from './types.ts';

/** A GraphQL request of the bench: the merchant (index into the seed) and the JSON body. */
export interface Document {
  merchant: number;
  body: { query: string; variables?: Record<string, unknown> };
}

interface Check {
  name: string;
  /** zarpay's document, which bare Yoga is sent too. */
  document: Document;
  /** Reads: the same data from both. Writes (new rows): the same shape. */
  exact: boolean;
  /** PostGraphile's own document for the same read, and how to tell its answer agrees. */
  postgraphile?: { document: Document; agree: (zarpay: any, postgraphile: any) => boolean };
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<any> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return res.json();
}

/** Each value replaced by its type, so that two answers about different rows can be compared. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
  return v === null ? 'null' : typeof v;
}

const brief = (v: unknown) => JSON.stringify(v).slice(0, 400);

/**
 * Sends one request of an operation to zarpay and to each GraphQL reference before it is
 * measured, and fails the run if a reference answers something else: bare Yoga the same JSON
 * (or shape, for a write), PostGraphile the same facts in its own shape. A reference that
 * answered errors fast would otherwise look faster than it is.
 */
export async function checkAnswers(ctx: BenchContext, check: Check): Promise<void> {
  const m = ctx.seed.merchants[check.document.merchant]!;
  const zarpay = await post(ctx.zarpayUrl, { 'x-api-key': m.key }, check.document.body);
  if (zarpay.errors || !zarpay.data) throw new Error(`zarpay answered ${check.name} with ${brief(zarpay)}`);
  if (ctx.yogaUrl) {
    const yoga = await post(ctx.yogaUrl, { 'x-merchant-id': m.id }, check.document.body);
    const same = check.exact ? isDeepStrictEqual(yoga, zarpay) : isDeepStrictEqual(shape(yoga), shape(zarpay));
    if (!same) throw new Error(`bare Yoga answered ${check.name} unlike zarpay:\n  zarpay: ${brief(zarpay)}\n  yoga:   ${brief(yoga)}`);
  }
  if (ctx.postgraphileUrl && check.postgraphile) {
    const pgl = await post(ctx.postgraphileUrl, {}, check.postgraphile.document.body);
    if (pgl.errors || !pgl.data || !check.postgraphile.agree(zarpay.data, pgl.data)) {
      throw new Error(`PostGraphile's answer to ${check.name} does not agree with zarpay's:\n  zarpay: ${brief(zarpay)}\n  postgraphile: ${brief(pgl)}`);
    }
  }
}
