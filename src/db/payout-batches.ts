import { type MerchantScope, merchantFilter } from '../domain/actor.ts';
import type { EntryOutcome, EntryRecord, PayoutBatch } from '../domain/payout-batch.ts';
import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';

/**
 * Bank files: the payout batches written as `pain.001` files and the bank's reports read back.
 * Both span merchants and are the operator's alone (the service admits no one else); the payouts
 * they move are locked within the caller's scope like every other payout.
 */

type BatchRow = {
  id: string;
  message_id: string;
  file_sha256: string;
  payout_count: number;
  total_cents: number;
  created_by: string;
  created_at: Date;
};
const BATCH_COLUMNS = 'id, message_id, file_sha256, payout_count, total_cents, created_by, created_at';
const toBatch = (r: BatchRow): PayoutBatch => ({
  id: r.id,
  messageId: r.message_id,
  fileSha256: r.file_sha256,
  payoutCount: r.payout_count,
  totalCents: Number(r.total_cents),
  createdBy: r.created_by,
  createdAt: r.created_at,
});

const lockApproved = statement<{ merchantId: string | null }, { id: string }>(
  'lock every approved payout for a batch',
  `select id from payouts
    where status = 'approved' and (:merchantId::uuid is null or merchant_id = :merchantId::uuid)
    order by id
      for update`,
);

/**
 * Locks every approved payout in the scope, in id order (so two exports, or an export and an
 * operator's move, cannot deadlock). A concurrent export waits here and then finds them no
 * longer approved: a payout never goes into two batches.
 */
export async function lockApprovedPayouts(tx: Tx, scope: MerchantScope): Promise<string[]> {
  return (await lockApproved.run(tx, { merchantId: merchantFilter(scope) })).map((r) => r.id);
}

const nextSeq = statement<Record<string, never>, { n: string }>(
  'the next batch number',
  `select coalesce(max(seq), 0) + 1 as n from payout_batches`,
);

/** The number the next batch will most likely get, for its message id (unique anyway). */
export async function nextBatchNumber(tx: Tx): Promise<number> {
  const [row] = await nextSeq.run(tx, {});
  return Number(row!.n);
}

export interface NewBatch {
  id: string;
  messageId: string;
  fileSha256: string;
  fileSealed: Buffer;
  totalCents: number;
  createdBy: string;
  createdAt: Date;
  payoutIds: string[];
}

const insertBatch = statement<Omit<NewBatch, 'payoutIds'> & { payoutIds: string[] }, BatchRow>(
  'record a payout batch and its payouts',
  `
  with batch as (
    insert into payout_batches (id, message_id, file_sha256, file_sealed, payout_count, total_cents, created_by, created_at)
    values (:id::uuid, :messageId::text, :fileSha256::text, :fileSealed::bytea, cardinality(:payoutIds::uuid[]), :totalCents::bigint,
            :createdBy::text, :createdAt::timestamptz)
    returning ${BATCH_COLUMNS}
  ),
  items as (
    -- The payout is the key of payout_batch_items: a payout in a second batch is refused here.
    insert into payout_batch_items (payout_id, batch_id, position)
    select p.id, b.id, p.n::int from batch b cross join unnest(:payoutIds::uuid[]) with ordinality as p(id, n)
  )
  select * from batch`,
);

export async function recordBatch(tx: Tx, batch: NewBatch): Promise<PayoutBatch> {
  const [row] = await insertBatch.run(tx, batch);
  return toBatch(row!);
}

const listStatement = statement<{ limit: number; offset: number }, BatchRow & { total: string }>(
  'payout batches, newest first',
  `select ${BATCH_COLUMNS}, count(*) over () as total from payout_batches order by seq desc limit :limit::int offset :offset::int`,
);

export async function listBatches(db: DbOrTx, page: { limit: number; offset: number }): Promise<{ batches: PayoutBatch[]; total: number }> {
  const rows = await listStatement.run(db, page);
  return { batches: rows.map(toBatch), total: rows[0] ? Number(rows[0].total) : 0 };
}

const fileStatement = statement<{ id: string }, BatchRow & { file_sealed: Buffer }>(
  'a payout batch with its sealed file',
  `select ${BATCH_COLUMNS}, file_sealed from payout_batches where id = :id::uuid`,
);

export async function findBatchFile(db: DbOrTx, id: string): Promise<{ batch: PayoutBatch; sealed: Buffer } | undefined> {
  const [row] = await fileStatement.run(db, { id });
  return row && { batch: toBatch(row), sealed: row.file_sealed };
}

const byMessageIdStatement = statement<{ messageIds: string[] }, BatchRow>(
  'a payout batch by its file\'s MsgId (also its PmtInfId)',
  `select ${BATCH_COLUMNS} from payout_batches where message_id = any(:messageIds::text[]) order by seq limit 1`,
);

/** The batch whose file's MsgId (its PmtInfId too) is one of these; undefined when none is. */
export async function findBatchByMessageId(db: DbOrTx, messageIds: string[]): Promise<PayoutBatch | undefined> {
  if (messageIds.length === 0) return undefined;
  const [row] = await byMessageIdStatement.run(db, { messageIds });
  return row && toBatch(row);
}

const amountsStatement = statement<{ ids: string[] }, { id: string; amount_cents: number | string; currency: string }>(
  'the amounts of payouts named by a bank report entry',
  `select id, amount_cents, currency from payouts where id = any(:ids::uuid[])`,
);

/** The amounts of these payouts (those that exist). */
export async function payoutAmounts(db: DbOrTx, ids: string[]): Promise<Map<string, { amountCents: number; currency: string }>> {
  const rows = ids.length ? await amountsStatement.run(db, { ids }) : [];
  return new Map(rows.map((r) => [r.id, { amountCents: Number(r.amount_cents), currency: r.currency }]));
}

const itemsStatement = statement<{ ids: string[] }, { batch_id: string; payout_id: string }>(
  'the payouts of batches, in file order',
  `select batch_id, payout_id from payout_batch_items where batch_id = any(:ids::uuid[]) order by batch_id, position`,
);

/** The payout ids of each batch, in the order of its file. */
export async function batchPayoutIds(db: DbOrTx, batchIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(batchIds.map((id) => [id, []]));
  if (batchIds.length === 0) return out;
  for (const r of await itemsStatement.run(db, { ids: [...batchIds] })) out.get(r.batch_id)?.push(r.payout_id);
  return out;
}

/* ---- the bank's reports ---- */

export interface BankReportRecord {
  id: string;
  fileSha256: string;
  kind: string;
  messageId: string;
  entryCount: number;
  importedBy: string;
  startedAt: Date;
  finishedAt: Date | null;
  /** Every entry before this one is applied (the job's progress). */
  nextPosition: number;
}

type ReportRow = {
  id: string;
  file_sha256: string;
  kind: string;
  message_id: string;
  entry_count: number;
  imported_by: string;
  started_at: Date;
  finished_at: Date | null;
  next_position: number;
};
const REPORT_COLUMNS = 'id, file_sha256, kind, message_id, entry_count, imported_by, started_at, finished_at, next_position';
const toReport = (r: ReportRow): BankReportRecord => ({
  id: r.id,
  fileSha256: r.file_sha256,
  kind: r.kind,
  messageId: r.message_id,
  entryCount: r.entry_count,
  importedBy: r.imported_by,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  nextPosition: r.next_position,
});

type NewReport = { id: string; fileSha256: string; kind: string; message: string; messageId: string; entryCount: number; importedBy: string };

const openReport = statement<NewReport, ReportRow>(
  'record a bank report, or find it by its hash',
  `
  with created as (
    insert into bank_reports (id, file_sha256, kind, message, message_id, entry_count, imported_by)
    values (:id::uuid, :fileSha256::text, :kind::text, :message::text, :messageId::text, :entryCount::int, :importedBy::text)
    on conflict (file_sha256) do nothing
    returning ${REPORT_COLUMNS}
  )
  select ${REPORT_COLUMNS} from created
  union all
  select ${REPORT_COLUMNS} from bank_reports where file_sha256 = :fileSha256::text and not exists (select 1 from created)`,
);

/** The report of these bytes: recorded now, or as an earlier import of the same file recorded it. */
export async function openBankReport(db: DbOrTx, r: NewReport): Promise<BankReportRecord> {
  // An import of the same file committing meanwhile is not in this statement's snapshot: look again.
  const [row] = await openReport.run(db, r);
  if (row) return toReport(row);
  const [again] = await openReport.run(db, r);
  return toReport(again!);
}

const claimEntry = statement<{ reportId: string } & EntryRecord, { position: number }>(
  'record what became of a bank report entry',
  `insert into bank_report_entries (report_id, position, payout_id, outcome, reference, amount_cents, currency, detail)
   values (:reportId::uuid, :position::int, :payoutId::uuid, :outcome::text, :reference::text, :amountCents::bigint, :currency::text, :detail::text)
   on conflict (report_id, position) do nothing
   returning position`,
);

/**
 * Records an entry's outcome in the transaction that applies it; false when it was recorded
 * already (an import of the same file running beside this one got there first: the caller rolls
 * its move back).
 */
export async function recordEntry(tx: Tx, reportId: string, entry: EntryRecord): Promise<boolean> {
  return (await claimEntry.run(tx, { reportId, ...entry })).length > 0;
}

const entriesStatement = statement<{ reportId: string }, { position: number; payout_id: string | null; outcome: string; reference: string | null; amount_cents: string | null; currency: string | null; detail: string | null }>(
  'the entries of a bank report',
  `select position, payout_id, outcome, reference, amount_cents, currency, detail from bank_report_entries where report_id = :reportId::uuid order by position`,
);

export async function reportEntries(db: DbOrTx, reportId: string): Promise<EntryRecord[]> {
  return (await entriesStatement.run(db, { reportId })).map((r) => ({
    position: r.position,
    payoutId: r.payout_id,
    outcome: r.outcome as EntryOutcome,
    reference: r.reference,
    amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
    currency: r.currency,
    detail: r.detail,
  }));
}

const finishStatement = statement<{ id: string }, ReportRow>(
  'a bank report is imported in full',
  `update bank_reports set finished_at = coalesce(finished_at, now()), next_position = entry_count, content_sealed = null
    where id = :id::uuid returning ${REPORT_COLUMNS}`,
);

/** The report is applied in full: its sealed bytes, no longer needed, are dropped. */
export async function finishBankReport(db: DbOrTx, id: string): Promise<BankReportRecord> {
  const [row] = await finishStatement.run(db, { id });
  return toReport(row!);
}

const storeContentStatement = statement<{ id: string; sealed: Buffer }, { id: string }>(
  'keep a bank report\'s bytes, sealed, until it is applied',
  `update bank_reports set content_sealed = :sealed::bytea where id = :id::uuid and finished_at is null returning id`,
);

/** Keeps the report's bytes (sealed) for the job that applies it; a report applied in full keeps none. */
export async function storeReportContent(tx: Tx, id: string, sealed: Buffer): Promise<void> {
  await storeContentStatement.run(tx, { id, sealed });
}

const findReportStatement = statement<{ id: string }, ReportRow & { content_sealed: Buffer | null }>(
  'a bank report with its sealed bytes',
  `select ${REPORT_COLUMNS}, content_sealed from bank_reports where id = :id::uuid`,
);

/** A report, with its sealed bytes while it is being applied. */
export async function findBankReport(db: DbOrTx, id: string): Promise<{ report: BankReportRecord; sealed: Buffer | null } | undefined> {
  const [row] = await findReportStatement.run(db, { id });
  return row && { report: toReport(row), sealed: row.content_sealed };
}

const reportRecordStatement = statement<{ id: string }, ReportRow>('a bank report', `select ${REPORT_COLUMNS} from bank_reports where id = :id::uuid`);

/** A report without its bytes (a report can be megabytes: read them once, not at every step). */
export async function findBankReportRecord(db: DbOrTx, id: string): Promise<BankReportRecord | undefined> {
  const [row] = await reportRecordStatement.run(db, { id });
  return row && toReport(row);
}

const advanceStatement = statement<{ id: string; from: number; to: number }, { id: string }>(
  'a bank report\'s job went past more entries',
  `update bank_reports set next_position = :to::int where id = :id::uuid and next_position = :from::int returning id`,
);

/**
 * Records, in the transaction of the step that applied them, that the entries from `from` up to
 * `to` are applied; false when another run moved the report on meanwhile (the caller rolls back).
 */
export async function advanceBankReport(tx: Tx, id: string, from: number, to: number): Promise<boolean> {
  return (await advanceStatement.run(tx, { id, from, to })).length > 0;
}

const lockReportStatement = statement<{ id: string }, { next_position: number }>(
  'lock a bank report for a step of its job',
  `select next_position from bank_reports where id = :id::uuid for update`,
);

/** Locks the report for one step: two runs of its job never apply the same entries at once. */
export async function lockBankReport(tx: Tx, id: string): Promise<number | undefined> {
  const [row] = await lockReportStatement.run(tx, { id });
  return row?.next_position;
}

const lockForImport = statement<{ id: string; merchantId: string | null }, { status: string; amount_cents: number; currency: string; external_transfer_id: string | null; returned: boolean }>(
  'lock a payout for a bank report entry',
  `select status, amount_cents, currency, external_transfer_id, returned_at is not null as returned from payouts
    where id = :id::uuid and (:merchantId::uuid is null or merchant_id = :merchantId::uuid)
      for update`,
);

/** Locks a payout an entry names, with what the entry is compared to; undefined when unknown. */
export async function lockPayoutForEntry(tx: Tx, scope: MerchantScope, id: string) {
  const [row] = await lockForImport.run(tx, { id, merchantId: merchantFilter(scope) });
  return row && { status: row.status, amountCents: Number(row.amount_cents), currency: row.currency, externalTransferId: row.external_transfer_id, returned: row.returned };
}
