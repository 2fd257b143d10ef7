import type { MerchantScope } from '../domain/actor.ts';
import { merchantFilter } from '../domain/actor.ts';
import type { PaymentLink } from '../domain/payment-link.ts';
import type { DbOrTx, Tx } from './index.ts';
import { type KeysetPage, listing } from './listing.ts';
import { statement } from './statement.ts';

/**
 * Every statement about payment links (CONTRACT §11). Reads take the caller's merchant scope;
 * the public page reads one link by its id alone (the id is what the merchant shares).
 */

/** A link's columns over `p`, with its counts from the payments made through it. */
const COLUMNS = `p.id, p.merchant_id, p.description, p.amount_cents, p.merchant_reference, p.single_use, p.active, p.created_at, p.updated_at,
  (select count(*) from payments x where x.payment_link_id = p.id)::bigint as payments_count,
  (select coalesce(sum(x.amount_cents), 0) from payments x where x.payment_link_id = p.id and x.status = 'captured')::bigint as captured_cents`;

interface Row {
  id: string;
  merchant_id: string;
  description: string;
  amount_cents: number | string | null;
  merchant_reference: string | null;
  single_use: boolean;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  payments_count: number | string;
  captured_cents: number | string;
}

function toLink(r: Row): PaymentLink {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    description: r.description,
    amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
    merchantReference: r.merchant_reference,
    singleUse: r.single_use,
    active: r.active,
    paymentsCount: Number(r.payments_count),
    capturedCents: Number(r.captured_cents),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export interface NewPaymentLink {
  id: string;
  merchantId: string;
  description: string;
  amountCents: number | null;
  merchantReference: string | null;
  singleUse: boolean;
}

const insertStatement = statement<NewPaymentLink, Row>(
  'create a payment link',
  `with p as (
     insert into payment_links (id, merchant_id, description, amount_cents, merchant_reference, single_use)
     values (:id::uuid, :merchantId::uuid, :description::text, :amountCents::bigint, :merchantReference::text, :singleUse::boolean)
     returning *
   )
   select p.id, p.merchant_id, p.description, p.amount_cents, p.merchant_reference, p.single_use, p.active, p.created_at, p.updated_at,
          0::bigint as payments_count, 0::bigint as captured_cents
     from p`,
);

export async function insertPaymentLink(db: DbOrTx, link: NewPaymentLink): Promise<PaymentLink> {
  const [row] = await insertStatement.run(db, link);
  return toLink(row!);
}

const byId = statement<{ id: string; merchantId: string | null }, Row>(
  'a payment link by id',
  `select ${COLUMNS} from payment_links p where p.id = :id::uuid and (:merchantId::uuid is null or p.merchant_id = :merchantId::uuid)`,
);

/** One link within the scope; undefined when missing or another merchant's. */
export async function findPaymentLink(db: DbOrTx, scope: MerchantScope, id: string): Promise<PaymentLink | undefined> {
  const [row] = await byId.run(db, { id, merchantId: merchantFilter(scope) });
  return row && toLink(row);
}

const publicById = statement<{ id: string }, Row & { merchant_name: string; captured_any: boolean }>(
  'a payment link for its public page, with its merchant\'s name',
  `select ${COLUMNS}, m.name as merchant_name,
          exists (select 1 from payments x where x.payment_link_id = p.id and x.status = 'captured') as captured_any
     from payment_links p join merchants m on m.id = p.merchant_id
    where p.id = :id::uuid`,
);

/**
 * A link as its public page shows it: anyone holding its address reads this much (the merchant
 * shares it), and nothing more of the merchant than its trading name.
 */
export async function findPublicPaymentLink(db: DbOrTx, id: string) {
  const [row] = await publicById.run(db, { id });
  return row && { link: toLink(row), merchantName: row.merchant_name, paid: row.captured_any };
}

const lockSingleUse = statement<{ id: string }, { id: string }>(
  'lock a single-use payment link',
  `select l.id from payment_links l where l.id = :id::uuid and l.single_use for update of l`,
);
const paidElsewhere = statement<{ id: string; paymentId: string }, { paid: boolean }>(
  'whether another payment of a link was captured',
  `select exists (select 1 from payments x where x.payment_link_id = :id::uuid and x.id <> :paymentId::uuid and x.status = 'captured') as paid`,
);

/**
 * Under the payment's lock (the lock order: payment, then its link): locks the link when it is
 * single-use and says whether a payment other than `paymentId` has captured through it. False for
 * a link that may be paid many times (not locked). Two statements: the second reads after the lock
 * was granted, so it sees the capture of whoever held the lock before (one statement would read
 * from before its wait).
 */
export async function lockLinkPaidElsewhere(tx: Tx, linkId: string, paymentId: string): Promise<boolean> {
  if ((await lockSingleUse.run(tx, { id: linkId })).length === 0) return false;
  const [row] = await paidElsewhere.run(tx, { id: linkId, paymentId });
  return row?.paid === true;
}

const setActiveStatement = statement<{ id: string; merchantId: string | null; active: boolean }, { id: string }>(
  'switch a payment link on or off',
  `update payment_links p set active = :active::boolean, updated_at = now()
    where p.id = :id::uuid and (:merchantId::uuid is null or p.merchant_id = :merchantId::uuid)
    returning p.id`,
);

/** Opens or closes a link within the scope; false when there is none. */
export async function setPaymentLinkActive(db: DbOrTx, scope: MerchantScope, id: string, active: boolean): Promise<boolean> {
  return (await setActiveStatement.run(db, { id, merchantId: merchantFilter(scope), active })).length > 0;
}

// The listing wants a status column: a link's is whether it is on.
const listings = listing<Row>({
  what: 'payment links',
  table: `(select l.*, case when l.active then 'active' else 'inactive' end as status from payment_links l) p`,
  columns: COLUMNS,
});

export async function listPaymentLinks(db: DbOrTx, scope: MerchantScope, q: { limit: number; offset: number }) {
  const { rows, total } = await listings.page(db, scope, q);
  return { links: rows.map(toLink), total };
}

export async function pagePaymentLinks(db: DbOrTx, scope: MerchantScope, page: KeysetPage) {
  return (await listings.keyset(db, scope, undefined, page)).map((r) => ({ node: toLink(r), seq: Number(r.seq) }));
}

export const countPaymentLinks = (db: DbOrTx, scope: MerchantScope) => listings.count(db, scope, undefined);
