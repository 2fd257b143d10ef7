import { type DefaultConnectionArguments, resolveCursorConnection } from '@pothos/plugin-relay';
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import { z } from 'zod';
import { AppError } from '../domain/errors.ts';
import { connectionArgs, PAGE_DEFAULT, PAGE_MAX } from '../domain/validation.ts';

/** A keyset page request over a creation sequence (what the statements of db/ read). */
export interface KeysetRequest {
  after: number | null;
  before: number | null;
  limit: number;
  inverted: boolean;
}

/** The page arguments of a connection field (`first` 0..100 …), leaving its filters alone. */
export const connectionArgsSchema = z.looseObject(connectionArgs);

/**
 * A Relay connection over a keyset query: cursors are opaque encodings of `{kind}:{seq}`, so a
 * cursor of one list is refused by another, and pages never shift when rows are added. An
 * omitted `first` and `last` mean the first PAGE_DEFAULT rows.
 */
export async function keysetConnection<T>(
  kind: string,
  args: DefaultConnectionArguments,
  page: (request: KeysetRequest) => Promise<{ node: T; seq: number }[]>,
  totalCount: () => Promise<number>,
  /** The page and the total in one read, used when the query asks for `totalCount`. */
  withTotal?: { page: (request: KeysetRequest) => Promise<{ page: { node: T; seq: number }[]; total: number }> },
) {
  let total: number | undefined;
  if (withTotal) {
    page = async (request) => {
      const both = await withTotal.page(request);
      total = both.total;
      return both.page;
    };
  }
  const count = totalCount;
  const prefix = `${kind}:`;
  const encode = (seq: number) => Buffer.from(prefix + seq).toString('base64url');
  const decode = (cursor: string) => {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    const seq = Number(text.slice(prefix.length));
    if (!text.startsWith(prefix) || !Number.isSafeInteger(seq) || seq < 0) throw new AppError('VALIDATION_FAILED', 'invalid cursor');
    return seq;
  };
  const connection = await resolveCursorConnection(
    { args, toCursor: (item: { seq: number }) => encode(item.seq), defaultSize: PAGE_DEFAULT, maxSize: PAGE_MAX },
    ({ before, after, limit, inverted }: { before?: string; after?: string; limit: number; inverted: boolean }) =>
      page({ limit, inverted, after: after === undefined ? null : decode(after), before: before === undefined ? null : decode(before) }),
  );
  const { startCursor, endCursor } = connection.pageInfo;
  return {
    // Relay: an empty page has null cursors (Pothos gives empty strings).
    pageInfo: { ...connection.pageInfo, startCursor: startCursor || null, endCursor: endCursor || null },
    edges: connection.edges.map((e) => e && { cursor: e.cursor, node: e.node.node }),
    totalCount: () => (total !== undefined ? Promise.resolve(total) : count()),
  };
}

/**
 * Whether the query selects `name` directly on this field's result (through fragments too): a
 * connection asked for its `totalCount` reads it with the page. A field under `@skip` or
 * `@include` counts as selected: at worst the count is read for nothing.
 */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const within = (set: SelectionSetNode | undefined): boolean =>
    set?.selections.some((sel) => {
      if (sel.kind === Kind.FIELD) return sel.name.value === name;
      if (sel.kind === Kind.INLINE_FRAGMENT) return within(sel.selectionSet);
      if (seen.has(sel.name.value)) return false;
      seen.add(sel.name.value);
      return within(info.fragments[sel.name.value]?.selectionSet);
    }) ?? false;
  return info.fieldNodes.some((node: FieldNode) => within(node.selectionSet));
}
