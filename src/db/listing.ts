import { type MerchantScope, merchantFilter } from '../domain/actor.ts';
import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/** A keyset page request over a creation sequence: older (`after`) or newer (`before`) than a position. */
export interface KeysetPage {
  after: number | null;
  before: number | null;
  limit: number;
  /** Oldest first instead of newest first (a page counted from the end). */
  inverted: boolean;
}

export interface ListingOf {
  /** What is listed, for the statements' names (`payouts`). */
  what: string;
  /** The table, aliased `p` (it has `merchant_id`, `status` and the creation sequence `seq`). */
  table: string;
  /** Joins that complete a row (a payment's latest attempt), after the table. */
  joins?: string;
  /** The columns of a row. */
  columns: string;
  /**
   * More conditions a caller may leave open, over `p`, each parameter null for "any"
   * (`(:orderId::text is null or p.merchant_order_id = :orderId::text)`), and those parameters.
   */
  filters?: { where: string; parameters: readonly string[] };
}

/** Values of a listing's extra filters, by parameter name; a missing one is null (any). */
export type ExtraFilters = Record<string, unknown>;

/**
 * The listings of one aggregate, newest first, within a merchant scope and an optional status:
 * offset pages beside the total that matches (REST, the CLI), keyset pages and counts (GraphQL
 * connections). Fixed statements like every other (statement.ts); `:merchantId` null is the
 * operator's every merchant.
 */
export function listing<Row>(of: ListingOf) {
  const from = `${of.table} ${of.joins ?? ''}`;
  const matching = `(:merchantId::uuid is null or p.merchant_id = :merchantId::uuid) and (:status::text is null or p.status = :status::text)${of.filters ? ` and ${of.filters.where}` : ''}`;
  const keyset = `${matching} and (:after::bigint is null or p.seq < :after::bigint) and (:before::bigint is null or p.seq > :before::bigint)`;
  type Filter = { merchantId: string | null; status: string | null };
  type Keyset = Filter & { after: number | null; before: number | null; limit: number };

  const pageWithTotal = statement<Filter & { limit: number; offset: number }, Partial<Row> & { total: number; id: string | null }>(
    `a page of ${of.what} with the total`,
    `select t.total, page.*
       from (select count(*) as total from ${of.table} where ${matching}) t
       left join lateral (select ${of.columns} from ${from} where ${matching} order by p.seq desc limit :limit::int offset :offset::int) page on true`,
  );
  const newestFirst = statement<Keyset, Row & { seq: number }>(
    `a keyset page of ${of.what}, newest first`,
    `select ${of.columns}, p.seq from ${from} where ${keyset} order by p.seq desc limit :limit::int`,
  );
  const oldestFirst = statement<Keyset, Row & { seq: number }>(
    `a keyset page of ${of.what}, oldest first`,
    `select ${of.columns}, p.seq from ${from} where ${keyset} order by p.seq asc limit :limit::int`,
  );
  const countStatement = statement<Filter, { n: number }>(`count ${of.what}`, `select count(*) as n from ${of.table} where ${matching}`);
  // A keyset page and the count of all that match, in one statement (one snapshot, one round
  // trip): what a dashboard's page with its total costs.
  const keysetWithTotal = (order: 'desc' | 'asc', name: string) =>
    statement<Keyset, Partial<Row & { seq: number }> & { total: number; id: string | null }>(
      `a keyset page of ${of.what}, ${name}, with the total`,
      `select t.total, page.*
         from (select count(*) as total from ${of.table} where ${matching}) t
         left join lateral (select ${of.columns}, p.seq from ${from} where ${keyset} order by p.seq ${order} limit :limit::int) page on true`,
    );
  const newestFirstWithTotal = keysetWithTotal('desc', 'newest first');
  const oldestFirstWithTotal = keysetWithTotal('asc', 'oldest first');

  const filter = (scope: MerchantScope, status: string | null | undefined, extra: ExtraFilters = {}): Filter => ({
    ...Object.fromEntries((of.filters?.parameters ?? []).map((p) => [p, extra[p] ?? null])),
    merchantId: merchantFilter(scope),
    status: status ?? null,
  });
  return {
    /** An offset page, newest first, beside the count of all that match: one statement. */
    async page(db: DbOrTx, scope: MerchantScope, q: { status?: string | undefined; limit: number; offset: number }, extra?: ExtraFilters): Promise<{ rows: Row[]; total: number }> {
      const rows = await pageWithTotal.run(db, { ...filter(scope, q.status, extra), limit: q.limit, offset: q.offset });
      return { rows: rows.filter((r) => r.id != null) as Row[], total: Number(rows[0]?.total ?? 0) };
    },
    /** A keyset page, newest first unless `inverted`, each row with its position. */
    keyset(db: DbOrTx, scope: MerchantScope, status: string | undefined, page: KeysetPage, extra?: ExtraFilters) {
      return (page.inverted ? oldestFirst : newestFirst).run(db, { ...filter(scope, status, extra), after: page.after, before: page.before, limit: page.limit });
    },
    /** `keyset` and `count` in one statement. */
    async keysetWithTotal(db: DbOrTx, scope: MerchantScope, status: string | undefined, page: KeysetPage): Promise<{ rows: (Row & { seq: number })[]; total: number }> {
      const rows = await (page.inverted ? oldestFirstWithTotal : newestFirstWithTotal).run(db, {
        ...filter(scope, status),
        after: page.after,
        before: page.before,
        limit: page.limit,
      });
      return { rows: rows.filter((r) => r.id != null) as unknown as (Row & { seq: number })[], total: Number(rows[0]?.total ?? 0) };
    },
    async count(db: DbOrTx, scope: MerchantScope, status: string | undefined, extra?: ExtraFilters): Promise<number> {
      const [row] = await countStatement.run(db, filter(scope, status, extra));
      return Number(row?.n ?? 0);
    },
  };
}
