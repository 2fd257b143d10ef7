import { z } from 'zod';

/**
 * The REST shape of an imported bank report (the operator's `POST /api/v1/operator/bank-reports`):
 * where its job stands and what it has done so far, as GraphQL's `BankReportImport` says it,
 * without the entries (a day's statement has thousands: GraphQL `bankReport(id)` lists them).
 */

/**
 * The largest bank report `POST /api/v1/operator/bank-reports` (rest/operator.ts) takes, as sent and once unzipped:
 * a busy account's whole-day camt.053 is a few MB (about 900 bytes an entry), so 32 MiB is some
 * 35,000 entries. It is this route's alone: every other route keeps the 64 KiB of CONTRACT §2.
 */
export const BANK_REPORT_BODY_LIMIT = 32 * 1024 * 1024;
const count = (description: string) => z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description });

export const BANK_REPORT_STATUSES = ['applying', 'applied', 'failed'] as const;

export const bankReportJsonSchema = z
  .object({
    report_id: z.uuid().meta({ description: 'The report, known by the SHA-256 of its bytes (GraphQL `bankReport(id)`)', example: '6c1e9a52-8a43-4c1e-9a57-5d2f0e2b7c11' }),
    kind: z.enum(['camt.054', 'camt.053']),
    message_id: z.string().max(35).meta({ description: 'The report\'s GrpHdr/MsgId', example: 'FNB-STM-20261125' }),
    status: z.enum(BANK_REPORT_STATUSES).meta({
      description: '`applying` (its job `payout.bank_report` is applying it), `applied` (every entry; the counts are final), `failed` (its job gave up: `error` says why; import the file again to go on)',
    }),
    error: z.string().max(2000).nullable().meta({ description: 'Why its job last failed, while the report is not applied' }),
    entry_count: count('Transactions in the report'),
    applied_count: count('Transactions applied so far (entry_count once applied)'),
    already_imported: z.boolean().meta({ description: 'The same file was applied in full before: nothing changed now' }),
    completed: count('Entries that completed payouts'),
    failed: count('Entries that failed payouts (returned by the bank before completion)'),
    returned: count('Entries that returned completed payouts (their amounts back in the balance)'),
    unchanged: count('Entries whose payouts were already where the entry says'),
    unmatched: count('Entries that moved nothing'),
  })
  .strict()
  .meta({ id: 'BankReport' });

export type BankReportJson = z.infer<typeof bankReportJsonSchema>;

/** What a report's import says, as `BankReportService` tells it (its entries aside). */
export interface BankReportSummary {
  reportId: string;
  kind: string;
  messageId: string;
  /** `applying` (its job is under way), `applied` (every entry), `failed` (its job gave up: `error` says why). */
  status: (typeof BANK_REPORT_STATUSES)[number];
  /** Why its job last failed, while it is not applied. */
  error: string | null;
  /** Entries in the report, and how many of them are applied so far. */
  entryCount: number;
  appliedCount: number;
  /** The same file was imported in full before: nothing was changed now. */
  alreadyImported: boolean;
  completed: number;
  failed: number;
  /** Completed payouts the bank gave back (CONTRACT §11): still completed, their amounts back in the balance. */
  returned: number;
  /** Entries that named a payout already where the entry says (a statement after a notification). */
  unchanged: number;
  unmatched: number;
}

export function bankReportJson(r: BankReportSummary): BankReportJson {
  return {
    report_id: r.reportId,
    kind: r.kind as BankReportJson['kind'],
    message_id: r.messageId,
    status: r.status,
    error: r.error === null || r.error.length <= 2000 ? r.error : `${r.error.slice(0, 1999)}…`,
    entry_count: r.entryCount,
    applied_count: r.appliedCount,
    already_imported: r.alreadyImported,
    completed: r.completed,
    failed: r.failed,
    returned: r.returned,
    unchanged: r.unchanged,
    unmatched: r.unmatched,
  };
}
