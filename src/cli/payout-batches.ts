import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Command } from 'commander';
import type { BankReportJson } from '../domain/bank-report-json.ts';
import { uuid, whole } from './args.ts';
import { CliError, operatorPost, resolveTarget, restShape } from './client.ts';
import { PAYOUT } from './fields.ts';
import { op, print } from './output.ts';

/**
 * `zarpay payout show` and `zarpay payout batch export|list|file|import` (issue 25): approved
 * payouts out to the bank as one pain.001 file, the bank's camt.054/053 reports back in.
 */

const BATCH = 'id messageId fileSha256 payoutCount totalCents createdBy createdAt';
const REPORT = `reportId kind messageId status error entryCount appliedCount alreadyImported completed failed returned unchanged unmatched
  entries { position payoutId outcome reference amountCents currency detail }`;

/** How long between two looks at a report being applied: soon at first, then at most every 2 s. */
const pollDelay = (n: number) => Math.min(2_000, 100 * 2 ** n);

/** The report once its job has applied it; a job that gave up is the command's error. */
async function applied(report: { reportId: string; status: string; error: string | null }): Promise<any> {
  let r = report;
  for (let n = 0; r.status === 'applying'; n++) {
    await new Promise((done) => setTimeout(done, pollDelay(n)));
    const now = (await op('query($id: UUID!) { bankReport(id: $id) { reportId status error } }', { id: r.reportId })).bankReport;
    if (!now) throw new CliError('NOT_FOUND', `bank report ${r.reportId} is gone`);
    r = now;
  }
  if (r.status === 'failed') {
    throw new CliError('INTERNAL_ERROR', `bank report ${r.reportId}: applying it failed (${r.error ?? 'no reason given'}); what it applied stands, and importing the file again goes on from there`);
  }
  return r === report ? r : (await op(`query($id: UUID!) { bankReport(id: $id) { ${REPORT} } }`, { id: r.reportId })).bankReport;
}

/** Refuses before anything is exported: a file the operator already has is never overwritten. */
function outPath(given: string | undefined, fallback: string): string {
  const path = resolve(given ?? fallback);
  if (existsSync(path)) throw new CliError('VALIDATION_FAILED', `--out: ${path} exists already (choose another file)`);
  return path;
}

/** The file holds full account numbers: readable by its owner only. */
const writeFile = (path: string, xml: string) => writeFileSync(path, xml, { mode: 0o600, flag: 'wx' });

export function payoutBatchCommands(payout: Command) {
  payout
    .command('show')
    .description('one payout, with its bank account (masked), the bank its branch code belongs to and any bank-name mismatch')
    .argument('<payout-id>', 'the payout', uuid('<payout-id>'))
    .action(async (id: string) => {
      const data = await op(`query($id: UUID!) { payout(id: $id) { ${PAYOUT} } }`, { id }, { id: '<payout-id>' });
      print(restShape(data.payout));
    });

  const batch = payout.command('batch').description('bank files: export approved payouts as one pain.001 file, import the bank\'s camt.054/053 reports');
  batch
    .command('export')
    .description('write every approved payout into one ISO 20022 pain.001.001.03 file and move them to processing')
    .option('--out <file>', 'where to write the file (default: payout-batch-<message id>.xml here); never overwritten')
    .action(async (opts: { out?: string }) => {
      const chosen = opts.out === undefined ? undefined : outPath(opts.out, '');
      const data = await op(`mutation { exportPayoutBatch { batch { ${BATCH} payouts { id } } file } }`);
      const { batch: b, file } = data.exportPayoutBatch;
      const path = chosen ?? outPath(undefined, `payout-batch-${b.messageId}.xml`);
      writeFile(path, file);
      print({ batch_id: b.id, file: path, payouts: b.payoutCount, total_cents: b.totalCents, message_id: b.messageId, file_sha256: b.fileSha256, payout_ids: b.payouts.map((p: { id: string }) => p.id) });
    });
  batch
    .command('list')
    .description('payout batches, newest first')
    .option('--limit <n>', 'at most this many (1 to 100)', whole('--limit', 1, 100), 20)
    .option('--offset <n>', 'skip this many first', whole('--offset', 0, 1_000_000), 0)
    .action(async (opts: { limit: number; offset: number }) => {
      const data = await op(
        `query($n: Int, $o: Int) { payoutBatches(first: $n, offset: $o) { totalCount batches { ${BATCH} payouts { id status } } } }`,
        { n: opts.limit, o: opts.offset },
        { n: '--limit', o: '--offset' },
      );
      print({ batches: restShape(data.payoutBatches.batches), total: data.payoutBatches.totalCount });
    });
  batch
    .command('file')
    .description('write a batch\'s file again, byte for byte as exported (audited: it holds full account numbers)')
    .argument('<batch-id>', 'the batch', uuid('<batch-id>'))
    .option('--out <file>', 'where to write it (default: payout-batch-<message id>.xml here); never overwritten')
    .action(async (id: string, opts: { out?: string }) => {
      const chosen = opts.out === undefined ? undefined : outPath(opts.out, '');
      const data = await op(`mutation($id: UUID!) { reissuePayoutBatchFile(id: $id) { batch { ${BATCH} } file } }`, { id }, { id: '<batch-id>' });
      const b = data.reissuePayoutBatchFile.batch;
      const path = chosen ?? outPath(undefined, `payout-batch-${b.messageId}.xml`);
      writeFile(path, data.reissuePayoutBatchFile.file);
      print({ batch_id: b.id, file: path, payouts: b.payoutCount, total_cents: b.totalCents, message_id: b.messageId, file_sha256: b.fileSha256 });
    });
  batch
    .command('import')
    .description('read the bank\'s camt.054 or camt.053 report: complete booked payouts, fail returned ones, report the rest (the same file twice changes nothing)')
    .argument('<file>', 'the report (XML)')
    .action(async (file: string) => {
      let content: Buffer;
      try {
        content = readFileSync(file);
      } catch (e) {
        throw new CliError('VALIDATION_FAILED', `<file>: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
      // The operator's REST route takes the report as it is, up to 32 MiB (a GraphQL request is
      // at most 64 KiB): gzipped, since bank XML shrinks about tenfold.
      const stored = await operatorPost<BankReportJson>(resolveTarget(), '/api/v1/operator/bank-reports', gzipSync(content), {
        'content-type': 'application/xml',
        'content-encoding': 'gzip',
      });
      // The service's job applies it: wait for the job, then read what it did (the entries).
      const done = await applied({ reportId: stored.report_id, status: stored.status, error: stored.error });
      const full = done.entries ? done : (await op(`query($id: UUID!) { bankReport(id: $id) { ${REPORT} } }`, { id: done.reportId })).bankReport;
      // Applied before: this import changed nothing, and its counts say so.
      const r = stored.already_imported
        ? { ...full, alreadyImported: true, completed: stored.completed, failed: stored.failed, returned: stored.returned, unmatched: stored.unmatched, unchanged: stored.unchanged }
        : full;
      print({
        completed: r.completed,
        failed: r.failed,
        returned: r.returned,
        unmatched: r.unmatched,
        unchanged: r.unchanged,
        already_imported: r.alreadyImported,
        report_id: r.reportId,
        kind: r.kind,
        message_id: r.messageId,
        entries: restShape(r.entries),
      });
    });
}
