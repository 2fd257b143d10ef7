import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import type { EntryRecord } from '../../domain/payout-batch.ts';
import { AppError } from '../../domain/errors.ts';
import type { BankReportImport } from '../../services/bank-reports.ts';
import type { BatchWithPayouts } from '../../services/payout-batches.ts';
import { actorOf, builder } from '../builder.ts';
import { validated } from '../validation.ts';
import { PayoutRef } from './payout.ts';

/** Bank files for payouts (issue 25): the operator's twins of `zarpay payout batch …`. */

const PayoutBatchRef = builder.objectRef<BatchWithPayouts>('PayoutBatch').implement({
  description: 'One ISO 20022 pain.001.001.03 credit-transfer file of approved payouts, exported once (CLI `zarpay payout batch export`).',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The batch id.' }),
    messageId: t.exposeString('messageId', { description: 'The file\'s GrpHdr/MsgId and PmtInfId, as the bank quotes it.' }),
    fileSha256: t.exposeString('fileSha256', { description: 'SHA-256 of the file\'s bytes (hex): the file written again has the same.' }),
    payoutCount: t.exposeInt('payoutCount', { description: 'How many payouts it pays.' }),
    totalCents: t.expose('totalCents', { type: 'Money', description: 'What it pays in all, in cents (the file\'s CtrlSum).' }),
    createdBy: t.exposeString('createdBy', { description: 'Who exported it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was exported.' }),
    payouts: t.field({ type: [PayoutRef], description: 'Its payouts, in file order.', resolve: (b) => b.payoutIds }),
  }),
});

const PayoutBatchListRef = builder.simpleObject('PayoutBatchList', {
  description: 'A page of payout batches, newest first.',
  fields: (t) => ({
    batches: t.field({ type: [PayoutBatchRef], description: 'The batches of this page.' }),
    totalCount: t.int({ description: 'How many batches there are.' }),
  }),
});

const BankReportEntryRef = builder.objectRef<EntryRecord>('BankReportEntry').implement({
  description: 'One transaction of a bank report and what became of it.',
  fields: (t) => ({
    position: t.exposeInt('position', { description: 'Its place in the file, from 0.' }),
    payoutId: t.expose('payoutId', { type: 'UUID', nullable: true, description: 'The payout it names, when there is one.' }),
    outcome: t.exposeString('outcome', {
      description: '`completed` or `failed` (the payout was moved), `returned` (a completed payout the bank gave back: it stays completed, its amount came back), `unchanged` (the payout was already there), `unmatched` (nothing moved: see detail).',
    }),
    reference: t.exposeString('reference', { nullable: true, description: 'The bank\'s reference for the entry (AcctSvcrRef, else NtryRef): a completed payout\'s externalTransferId.' }),
    amountCents: t.expose('amountCents', { type: 'Money', nullable: true, description: 'The entry\'s amount, in cents.' }),
    currency: t.exposeString('currency', { nullable: true, description: 'The entry\'s currency.' }),
    detail: t.exposeString('detail', { nullable: true, description: 'Why it is unmatched, or a return\'s reason in words.' }),
  }),
});

const BankReportImportRef = builder.objectRef<BankReportImport>('BankReportImport').implement({
  description: 'What importing a bank report did (CLI `zarpay payout batch import`).',
  fields: (t) => ({
    reportId: t.expose('reportId', { type: 'UUID', description: 'The report, known by the SHA-256 of its bytes.' }),
    kind: t.exposeString('kind', { description: '`camt.054` or `camt.053`.' }),
    messageId: t.exposeString('messageId', { description: 'The report\'s GrpHdr/MsgId.' }),
    status: t.exposeString('status', {
      description:
        '`applying` (its job `payout.bank_report` is applying it: ask `bankReport(id)` again), `applied` (every entry; the counts are final), `failed` (its job gave up: `error` says why; import the file again to go on).',
    }),
    error: t.exposeString('error', { nullable: true, description: 'Why its job last failed, while the report is not applied.' }),
    entryCount: t.exposeInt('entryCount', { description: 'Transactions in the report.' }),
    appliedCount: t.exposeInt('appliedCount', { description: 'Transactions applied so far (entryCount once applied).' }),
    alreadyImported: t.exposeBoolean('alreadyImported', { description: 'The same file was applied in full before: nothing changed now.' }),
    completed: t.exposeInt('completed', { description: 'Payouts completed by this import.' }),
    failed: t.exposeInt('failed', { description: 'Payouts failed by this import (returned by the bank).' }),
    returned: t.exposeInt('returned', { description: 'Completed payouts the bank gave back by this import: still completed, returnedAt set, their amounts back in the balance (fees stay).' }),
    unchanged: t.exposeInt('unchanged', { description: 'Entries whose payout was already where the entry says.' }),
    unmatched: t.exposeInt('unmatched', { description: 'Entries that moved nothing: unknown payout, amount or currency differing, not booked, or a payout in another state.' }),
    entries: t.field({ type: [BankReportEntryRef], description: 'Every transaction of the report, in file order.', resolve: (r) => r.entries }),
  }),
});

const ExportPayoutBatchPayload = builder.simpleObject('PayoutBatchFilePayload', {
  description: 'A batch and its file (it carries full account numbers: handle it like the bank details it holds).',
  fields: (t) => ({
    batch: t.field({ type: PayoutBatchRef, description: 'The batch.' }),
    file: t.string({ description: 'The pain.001.001.03 XML to send to the bank.' }),
  }),
});

const ImportBankReportInput = builder.inputType('ImportBankReportInput', {
  description:
    'A bank report (camt.054 or camt.053 XML): exactly one of its text, its bytes in base64, or its bytes gzipped and in base64. A request body is at most 64 KiB, so larger reports go gzipped (XML shrinks about tenfold), or, up to 32 MiB, as XML to the operator\'s REST route POST /api/v1/operator/bank-reports (the CLI sends them there).',
  fields: (t) => ({
    content: t.string({ description: 'The report\'s XML text.' }),
    contentBase64: t.string({ description: 'The report\'s bytes in base64 (UTF-8 XML).' }),
    contentGzipBase64: t.string({ description: 'The report\'s bytes, gzipped, in base64 (at most 16 MiB once unzipped).' }),
  }),
});

const importInput = z
  .object({ content: z.string().min(1).nullish(), contentBase64: z.string().min(1).nullish(), contentGzipBase64: z.string().min(1).nullish() })
  .refine((i) => [i.content, i.contentBase64, i.contentGzipBase64].filter(Boolean).length === 1, 'give exactly one of content, contentBase64 and contentGzipBase64');

/** The largest report accepted once unzipped: a day's statement of thousands of entries fits many times. */
const MAX_REPORT_BYTES = 16 * 1024 * 1024;

function reportText(input: { content?: string | null; contentBase64?: string | null; contentGzipBase64?: string | null }): string {
  if (input.content) return input.content;
  if (input.contentBase64) return Buffer.from(input.contentBase64, 'base64').toString('utf8');
  try {
    return gunzipSync(Buffer.from(input.contentGzipBase64 ?? '', 'base64'), { maxOutputLength: MAX_REPORT_BYTES }).toString('utf8');
  } catch {
    throw new AppError('VALIDATION_FAILED', `input.contentGzipBase64: not gzip in base64, or larger than ${MAX_REPORT_BYTES / 1024 / 1024} MiB unzipped`);
  }
}

builder.queryFields((t) => ({
  payoutBatches: t.field({
    type: PayoutBatchListRef,
    description: 'Payout batches, newest first (operator only; CLI `zarpay payout batch list`). Errors: VALIDATION_FAILED for first or offset out of bounds, FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: {
      first: t.arg.int({ description: 'At most this many (1 to 100, default 20).', validate: validated(z.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100')) }),
      offset: t.arg.int({ description: 'Skip this many first.', validate: validated(z.number().int().min(0, 'must be at least 0')) }),
    },
    resolve: async (_r, a, ctx) => {
      const { batches, total } = await ctx.services.payoutBatches.list(actorOf(ctx), { limit: a.first ?? 20, offset: a.offset ?? 0 });
      return { batches, totalCount: total };
    },
  }),
}));

builder.queryFields((t) => ({
  bankReport: t.field({
    type: BankReportImportRef,
    nullable: true,
    description: 'An imported bank report as its job has applied it so far, null when there is none (operator only; CLI `zarpay payout batch import` waits on it). Errors: FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The report id (importBankReport\'s reportId).' }) },
    resolve: (_r, a, ctx) => ctx.services.bankReports.report(actorOf(ctx), a.id),
  }),
}));

builder.mutationFields((t) => ({
  exportPayoutBatch: t.field({
    type: ExportPayoutBatchPayload,
    description:
      'Writes every approved payout into one pain.001.001.03 file and moves them to processing, in one transaction (operator only; CLI `zarpay payout batch export`). Errors: NOT_FOUND when no payout is approved, SERVICE_UNAVAILABLE when the PAYOUT_DEBTOR_* settings are unset, FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    resolve: (_r, _a, ctx) => ctx.services.payoutBatches.export(actorOf(ctx)),
  }),
  reissuePayoutBatchFile: t.field({
    type: ExportPayoutBatchPayload,
    description:
      'A batch\'s file again, byte for byte as exported (operator only; CLI `zarpay payout batch file`). It carries full account numbers, so each call is in the audit log, like revealPayoutBankAccount. Errors: NOT_FOUND, FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The batch id.' }) },
    resolve: (_r, a, ctx) => ctx.services.payoutBatches.file(actorOf(ctx), a.id),
  }),
  importBankReport: t.field({
    type: BankReportImportRef,
    description:
      'Reads the bank\'s camt.054 or camt.053 report, checks it against the published schema of its version, and stores it with a job that applies it: completes the booked payouts, fails the returned ones, reports the rest. It answers at once with status `applying`; ask `bankReport(reportId)` until it is `applied`. The same file twice changes nothing (operator only; CLI `zarpay payout batch import`). Errors: VALIDATION_FAILED for content that is not such a report, breaks its schema (naming the lines) or is of a version whose schema is not shipped, FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: { input: t.arg({ type: ImportBankReportInput, required: true, description: 'The report.', validate: validated(importInput) }) },
    resolve: (_r, { input }, ctx) => {
      const content = reportText(input);
      if (!content.trim()) throw new AppError('VALIDATION_FAILED', 'input.content: the report is empty');
      return ctx.services.bankReports.import(actorOf(ctx), content);
    },
  }),
}));
