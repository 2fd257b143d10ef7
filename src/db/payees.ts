import type { OneMerchantScope } from '../domain/actor.ts';
import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';

/**
 * Every statement about saved payees. Reads take the merchant's own scope; the details are
 * sealed bytes here, opened by the service (domain/sealing.ts).
 */

/** A payee's row: its sealed details and what is kept beside them in the clear. */
export interface PayeeRecord {
  id: string;
  merchantId: string;
  name: string;
  bank: string;
  sealed: Buffer;
  createdAt: Date;
}

interface Row {
  id: string;
  merchant_id: string;
  name: string;
  bank: string;
  details_sealed: Buffer;
  created_at: Date;
}

const COLUMNS = 'id, merchant_id, name, bank, details_sealed, created_at';

const toRecord = (r: Row): PayeeRecord => ({
  id: r.id,
  merchantId: r.merchant_id,
  name: r.name,
  bank: r.bank,
  // Embedded PostgreSQL hands bytea back as a plain Uint8Array.
  sealed: Buffer.isBuffer(r.details_sealed) ? r.details_sealed : Buffer.from(r.details_sealed),
  createdAt: r.created_at,
});

const listStatement = statement<{ merchantId: string }, Row>(
  "a merchant's payees, oldest first",
  `select ${COLUMNS} from payees where merchant_id = :merchantId::uuid and removed_at is null order by created_at, id`,
);

/** The merchant's payees (removed ones left out), oldest first. */
export async function listPayees(db: DbOrTx, scope: OneMerchantScope): Promise<PayeeRecord[]> {
  return (await listStatement.run(db, { merchantId: scope.merchantId })).map(toRecord);
}

const byIdStatement = statement<{ merchantId: string; id: string }, Row>(
  'a payee by id',
  `select ${COLUMNS} from payees where id = :id::uuid and merchant_id = :merchantId::uuid and removed_at is null`,
);

/** One of the merchant's payees; undefined when unknown, removed or another merchant's. */
export async function findPayee(db: DbOrTx, scope: OneMerchantScope, id: string): Promise<PayeeRecord | undefined> {
  const [row] = await byIdStatement.run(db, { merchantId: scope.merchantId, id });
  return row && toRecord(row);
}

const countStatement = statement<{ merchantId: string }, { n: number }>(
  "how many payees a merchant has",
  `select count(*)::int as n from payees where merchant_id = :merchantId::uuid and removed_at is null`,
);

/** How many payees the merchant has now (count under the merchant's lock to keep the bound). */
export async function countPayees(tx: Tx, merchantId: string): Promise<number> {
  const [row] = await countStatement.run(tx, { merchantId });
  return Number(row!.n);
}

export interface NewPayee {
  id: string;
  merchantId: string;
  name: string;
  bank: string;
  /** Sealed by the service: never in the clear here. */
  sealed: Buffer;
  /** A keyed digest of branch code and account number: one live payee per account. */
  accountDigest: Buffer;
  createdByPersonId: string | null;
}

const insertStatement = statement<NewPayee, Row>(
  'add a payee',
  `insert into payees (id, merchant_id, name, bank, details_sealed, account_digest, created_by_person_id)
   values (:id::uuid, :merchantId::uuid, :name::text, :bank::text, :sealed::bytea, :accountDigest::bytea, :createdByPersonId::uuid)
   on conflict (merchant_id, account_digest) where removed_at is null do nothing
   returning ${COLUMNS}`,
);

/** A new payee; undefined when the merchant already has a payee for this account. */
export async function insertPayee(tx: Tx, payee: NewPayee): Promise<PayeeRecord | undefined> {
  const [row] = await insertStatement.run(tx, payee);
  return row && toRecord(row);
}

const removeStatement = statement<{ merchantId: string; id: string }, Row>(
  'remove a payee',
  `update payees set removed_at = now() where id = :id::uuid and merchant_id = :merchantId::uuid and removed_at is null returning ${COLUMNS}`,
);

/** Removes one of the merchant's payees (its row stays for the payouts that named it); undefined when there was none. */
export async function removePayee(tx: Tx, merchantId: string, id: string): Promise<PayeeRecord | undefined> {
  const [row] = await removeStatement.run(tx, { merchantId, id });
  return row && toRecord(row);
}
