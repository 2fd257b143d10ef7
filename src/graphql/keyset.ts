import { type DefaultConnectionArguments, resolveCursorConnection } from '@pothos/plugin-relay';
import { AppError } from '../domain/errors.ts';

/** A keyset position (a creation sequence) and how to read pages around it. */
export interface KeysetPageArgs {
  before?: number;
  after?: number;
  limit: number;
  inverted?: boolean;
}

/**
 * A Relay connection over a keyset query: cursors are opaque encodings of `{kind}:{seq}`, so a
 * cursor of one list is refused by another, and pages never shift when rows are added.
 */
export async function keysetConnection<T>(
  kind: string,
  args: DefaultConnectionArguments,
  page: (args: KeysetPageArgs) => Promise<{ node: T; seq: number }[]>,
  count: () => Promise<number>,
) {
  const prefix = `${kind}:`;
  const encode = (seq: number) => Buffer.from(prefix + seq).toString('base64url');
  const decode = (cursor: string) => {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    const seq = Number(text.slice(prefix.length));
    if (!text.startsWith(prefix) || !Number.isSafeInteger(seq) || seq < 0) throw new AppError('VALIDATION_FAILED', 'invalid cursor');
    return seq;
  };
  const connection = await resolveCursorConnection<Promise<{ node: T; seq: number }[]>>(
    { args, toCursor: (item: { seq: number }) => encode(item.seq), defaultSize: 50, maxSize: 100 },
    ({ before, after, limit, inverted }) =>
      page({
        limit,
        inverted,
        ...(after !== undefined && { after: decode(after) }),
        ...(before !== undefined && { before: decode(before) }),
      }),
  );
  const { startCursor, endCursor } = connection.pageInfo;
  return {
    ...connection,
    // Relay: an empty page has null cursors (Pothos gives empty strings).
    pageInfo: { ...connection.pageInfo, startCursor: startCursor || null, endCursor: endCursor || null },
    edges: connection.edges.map((e) => e && { cursor: e.cursor, node: e.node.node }),
    totalCount: count,
  };
}
