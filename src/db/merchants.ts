import { randomUUID } from 'node:crypto';
import type { Merchant, UpdateMerchantInput } from '../domain/merchant.ts';
import type { PaymentMethod } from '../domain/payment-method.ts';
import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';
import type { MerchantRow } from './types.ts';

/** Every statement about merchants (their key reads are in api-keys.ts, their balances in ledger.ts). */

const COLUMNS = `id, name, webhook_url, payment_fee_bps, payment_fee_fixed_cents, payout_fee_cents, auto_topup, redirect_domains,
  support_contact, support_email, support_phone, payment_methods, payment_min_cents, payment_max_cents, created_at, updated_at`;

/** A merchant row as services hand it out. */
export function toMerchant(row: Pick<MerchantRow, keyof MerchantRow>): Merchant {
  return {
    id: row.id,
    name: row.name,
    webhookUrl: row.webhook_url,
    paymentFeeBps: row.payment_fee_bps,
    paymentFeeFixedCents: row.payment_fee_fixed_cents,
    payoutFeeCents: row.payout_fee_cents,
    autoTopup: row.auto_topup,
    redirectDomains: row.redirect_domains,
    supportContact: row.support_contact,
    supportEmail: row.support_email,
    supportPhone: row.support_phone,
    paymentMethods: (row.payment_methods as PaymentMethod[] | null) ?? null,
    paymentLimits: { minCents: Number(row.payment_min_cents), maxCents: Number(row.payment_max_cents) },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type NewMerchant = Omit<Merchant, 'id' | 'createdAt' | 'updatedAt' | 'supportEmail' | 'supportPhone' | 'paymentMethods' | 'paymentLimits'>;

const insertStatement = statement<NewMerchant & { id: string }, MerchantRow>(
  'create a merchant',
  `insert into merchants (id, name, webhook_url, payment_fee_bps, payment_fee_fixed_cents, payout_fee_cents, auto_topup,
                          redirect_domains, support_contact)
   values (:id::uuid, :name::text, :webhookUrl::text, :paymentFeeBps::int, :paymentFeeFixedCents::bigint, :payoutFeeCents::bigint,
           :autoTopup::boolean, :redirectDomains::text[], :supportContact::text)
   returning ${COLUMNS}`,
);

/** Writes a new merchant (its balance and first key are the caller's, in the same transaction). */
export async function insertMerchant(tx: Tx, merchant: NewMerchant): Promise<Merchant> {
  const [row] = await insertStatement.run(tx, { id: randomUUID(), ...merchant });
  return toMerchant(row!);
}

type Change = { [K in Exclude<keyof UpdateMerchantInput, 'paymentLimits'>]-?: Exclude<UpdateMerchantInput[K], undefined> | null } & {
  paymentMinCents: number | null;
  paymentMaxCents: number | null;
};

/**
 * Only what the input gives changes: a null stands for "not given", except for the columns that
 * can be cleared, which say whether they are given (`:setWebhookUrl`, `:setSupportContact`, …).
 * Added redirect domains are a union computed in the update itself, so concurrent additions do not
 * lose each other.
 */
const updateStatement = statement<
  Change & { id: string; setWebhookUrl: boolean; setSupportContact: boolean; setSupportEmail: boolean; setSupportPhone: boolean; setPaymentMethods: boolean },
  MerchantRow
>(
  'change a merchant',
  `update merchants
      set name = coalesce(:name::text, name),
          webhook_url = case when :setWebhookUrl::boolean then :webhookUrl::text else webhook_url end,
          payment_fee_bps = coalesce(:paymentFeeBps::int, payment_fee_bps),
          payment_fee_fixed_cents = coalesce(:paymentFeeFixedCents::bigint, payment_fee_fixed_cents),
          payout_fee_cents = coalesce(:payoutFeeCents::bigint, payout_fee_cents),
          auto_topup = coalesce(:autoTopup::boolean, auto_topup),
          payment_min_cents = coalesce(:paymentMinCents::bigint, payment_min_cents),
          payment_max_cents = coalesce(:paymentMaxCents::bigint, payment_max_cents),
          support_contact = case when :setSupportContact::boolean then :supportContact::text else support_contact end,
          support_email = case when :setSupportEmail::boolean then :supportEmail::text else support_email end,
          support_phone = case when :setSupportPhone::boolean then :supportPhone::text else support_phone end,
          payment_methods = case when :setPaymentMethods::boolean then :paymentMethods::text[] else payment_methods end,
          redirect_domains = case
            when :addRedirectDomains::text[] is null then coalesce(:redirectDomains::text[], redirect_domains)
            else array(select distinct d from unnest(coalesce(:redirectDomains::text[], redirect_domains) || :addRedirectDomains::text[]) as d order by d)
          end,
          updated_at = now()
    where id = :id::uuid
   returning ${COLUMNS}`,
);

/** Changes what `change` gives of the merchant `id`; undefined when there is none. */
export async function updateMerchant(db: DbOrTx, id: string, change: UpdateMerchantInput): Promise<Merchant | undefined> {
  const [row] = await updateStatement.run(db, {
    id,
    name: change.name ?? null,
    setWebhookUrl: change.webhookUrl !== undefined,
    webhookUrl: change.webhookUrl ?? null,
    paymentFeeBps: change.paymentFeeBps ?? null,
    paymentFeeFixedCents: change.paymentFeeFixedCents ?? null,
    payoutFeeCents: change.payoutFeeCents ?? null,
    autoTopup: change.autoTopup ?? null,
    paymentMinCents: change.paymentLimits?.minCents ?? null,
    paymentMaxCents: change.paymentLimits?.maxCents ?? null,
    setSupportContact: change.supportContact !== undefined,
    supportContact: change.supportContact ?? null,
    setSupportEmail: change.supportEmail !== undefined,
    supportEmail: change.supportEmail ?? null,
    setSupportPhone: change.supportPhone !== undefined,
    supportPhone: change.supportPhone ?? null,
    setPaymentMethods: change.paymentMethods !== undefined,
    paymentMethods: change.paymentMethods ?? null,
    redirectDomains: change.redirectDomains ?? null,
    addRedirectDomains: change.addRedirectDomains ?? null,
  });
  return row && toMerchant(row);
}

const byIds = statement<{ ids: string[] }, MerchantRow>('merchants by id', `select ${COLUMNS} from merchants where id = any(:ids::uuid[])`);

/** The merchants of these ids that exist, in no particular order. */
export async function findMerchants(db: DbOrTx, ids: readonly string[]): Promise<Merchant[]> {
  if (ids.length === 0) return [];
  return (await byIds.run(db, { ids: [...ids] })).map(toMerchant);
}

const everyMerchant = statement<Record<string, never>, MerchantRow>('every merchant', `select ${COLUMNS} from merchants order by created_at`);

/** Every merchant, oldest first. */
export async function listMerchants(db: DbOrTx): Promise<Merchant[]> {
  return (await everyMerchant.run(db, {})).map(toMerchant);
}

const existsStatement = statement<{ id: string }, { id: string }>('whether a merchant exists', `select id from merchants where id = :id::uuid`);

export async function merchantExists(db: DbOrTx, id: string): Promise<boolean> {
  return (await existsStatement.run(db, { id })).length > 0;
}

const lockStatement = statement<{ id: string }, { id: string }>('lock a merchant', `select id from merchants where id = :id::uuid for update`);

/**
 * Locks the merchant's row until the caller's transaction ends, to serialise changes that must
 * not interleave (its webhook secrets); false when there is no such merchant.
 */
export async function lockMerchant(tx: Tx, id: string): Promise<boolean> {
  return (await lockStatement.run(tx, { id })).length > 0;
}
