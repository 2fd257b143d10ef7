import { createHash, randomUUID } from 'node:crypto';
import { recordAudit } from '../db/audit.ts';
import type { Tx } from '../db/index.ts';
import { enqueue, findJobByKey, requeueFailed } from '../db/jobs.ts';
import * as batches from '../db/payout-batches.ts';
import { type Actor, actorLabel, OPERATOR, requireOperator, scope } from '../domain/actor.ts';
import type { BankReportSummary } from '../domain/bank-report-json.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { type ReportLine, parseBankReport } from '../domain/iso20022/camt.ts';
import { decimalAmount } from '../domain/iso20022/money-text.ts';
import { payoutIdOf } from '../domain/iso20022/pain001.ts';
import { QUEUE } from '../domain/jobs.ts';
import type { EntryRecord } from '../domain/payout-batch.ts';
import { kidOrUnknown, openOrNull } from '../domain/sealing.ts';
import { isShipped, SHIPPED_SCHEMAS, schemaErrors } from '../outside/bank/schemas.ts';
import { keyringOf, type ServiceDeps, withEvents } from './deps.ts';
import { movePayoutIn, returnPayoutIn } from './payout-moves.ts';

/** A report's import as told by `BankReportService`: its summary and each entry's decision. */
export interface BankReportImport extends BankReportSummary {
  entries: EntryRecord[];
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/**
 * Entries a step of a report's job applies in one transaction: few enough that the payouts it
 * locks are held for a moment, many enough that a day's statement is not a commit per entry.
 */
const ENTRIES_PER_STEP = 50;

/**
 * The bank's camt.054/camt.053 reports for the payouts that left in a pain.001 file
 * (services/payout-batches.ts): checked against their schema, stored sealed, and applied by a
 * `payout.bank_report` job in steps. Every move is the operator's move of services/payouts.ts
 * (`movePayoutIn`, `returnPayoutIn`): the same state machine, ledger posting, event, webhook and
 * audit entry as `zarpay payout complete|fail|return`.
 */
export class BankReportService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Reads the bank's report, checks it against its version's schema, and stores it (sealed) with
   * a `payout.bank_report` job that applies it (`applyStep`), all before anything is applied: the
   * answer says how far it has come (`status`), and `report` says it again until it is `applied`.
   * The same file again is the same report: applied in full before, it changes nothing
   * (`alreadyImported`); cut short, its job is queued again and goes on where it stopped.
   */
  async import(actor: Actor, content: string): Promise<BankReportImport> {
    requireOperator(actor);
    const report = parseBankReport(content);
    await checkSchema(content, report.message);
    const keyring = keyringOf(this.deps);
    const opened = await withEvents(this.deps, async (tx) => {
      const record = await batches.openBankReport(tx, {
        id: randomUUID(),
        fileSha256: sha256(content),
        kind: report.kind,
        message: report.message,
        messageId: report.messageId,
        entryCount: report.lines.length,
        importedBy: actorLabel(actor),
      });
      if (record.finishedAt !== null) return record;
      // Sealed again each time: a report cut short under a data key since retired goes on under today's.
      await batches.storeReportContent(tx, record.id, keyring.seal('bank-report', record.id, content));
      const payload = { report: record.id, operator: actor.kind === 'operator' ? (actor.name ?? null) : null };
      if (!(await enqueue(tx, { queue: QUEUE.bankReport, key: record.id, payload }))) await requeueFailed(tx, QUEUE.bankReport, record.id);
      return record;
    });
    if (opened.finishedAt !== null) {
      return { ...(await this.summary(opened)), alreadyImported: true, completed: 0, failed: 0, returned: 0, unmatched: 0, unchanged: opened.entryCount };
    }
    return this.summary(opened);
  }

  /** A report as its job has applied it so far (CLI `zarpay payout batch import` waits on this); null when there is none. */
  async report(actor: Actor, id: string): Promise<BankReportImport | null> {
    requireOperator(actor);
    const found = isUuid(id) ? await batches.findBankReportRecord(this.deps.db, id.toLowerCase()) : undefined;
    return found ? this.summary(found) : null;
  }

  private async summary(record: batches.BankReportRecord): Promise<BankReportImport> {
    const entries = await batches.reportEntries(this.deps.db, record.id);
    const count = (outcome: string) => entries.filter((e) => e.outcome === outcome).length;
    const job = record.finishedAt === null ? await findJobByKey(this.deps.db, QUEUE.bankReport, record.id) : null;
    return {
      reportId: record.id,
      kind: record.kind,
      messageId: record.messageId,
      status: record.finishedAt !== null ? 'applied' : job?.status === 'failed' ? 'failed' : 'applying',
      error: job?.lastError ?? null,
      entryCount: record.entryCount,
      appliedCount: entries.length,
      alreadyImported: false,
      completed: count('completed'),
      failed: count('failed'),
      returned: count('returned'),
      unchanged: count('unchanged'),
      unmatched: count('unmatched'),
      entries,
    };
  }

  /**
   * One step of a report's job: the next `ENTRIES_PER_STEP` entries applied in one transaction,
   * with each entry's record and the report's progress, so a crash loses the step and nothing
   * else, and the job run again starts after the last step that committed. `true` once every
   * entry is applied: the report is then finished (its bytes dropped) and the import audited.
   */
  async applyStep(reportId: string, operatorName: string | null): Promise<boolean> {
    const actor: Actor = operatorName ? { kind: 'operator', name: operatorName } : OPERATOR;
    const report = await batches.findBankReportRecord(this.deps.db, reportId);
    if (!report || report.finishedAt !== null) return true;
    const lines = await this.linesOf(report);
    const done = await withEvents(this.deps, async (tx) => {
      const from = await batches.lockBankReport(tx, reportId);
      if (from === undefined) return true;
      const to = Math.min(lines.length, from + ENTRIES_PER_STEP);
      for (const line of lines.slice(from, to)) await this.apply(tx, actor, reportId, line);
      await batches.advanceBankReport(tx, reportId, from, to);
      return to >= lines.length;
    });
    if (done) await this.finish(report);
    return done;
  }

  private parsed: { id: string; lines: ReportLine[] } | undefined;

  /** The report's lines, read from its sealed bytes once per report (a job takes many steps). */
  private async linesOf(report: batches.BankReportRecord): Promise<ReportLine[]> {
    if (this.parsed?.id === report.id) return this.parsed.lines;
    const sealed = (await batches.findBankReport(this.deps.db, report.id))?.sealed ?? null;
    if (sealed === null) throw new AppError('CONFLICT', `bank report ${report.id} has no stored file: import the file again (zarpay payout batch import FILE)`);
    const keyring = keyringOf(this.deps);
    const content = openOrNull(keyring, 'bank-report', report.id, sealed);
    if (content === null) {
      throw new AppError('CONFLICT', `bank report ${report.id} will not open under the data keys of this service (it names key ${kidOrUnknown(keyring, sealed)}): import the file again`);
    }
    const lines = parseBankReport(content).lines;
    this.parsed = { id: report.id, lines };
    return lines;
  }

  private async finish(started: batches.BankReportRecord): Promise<void> {
    this.parsed = undefined;
    const record = await batches.finishBankReport(this.deps.db, started.id);
    if (started.finishedAt !== null) return;
    const s = await this.summary(record);
    await recordAudit(this.deps.db, {
      actor: record.importedBy,
      action: 'bank_report.import',
      detail: { report_id: record.id, kind: record.kind, message_id: record.messageId, file_sha256: record.fileSha256, completed: s.completed, failed: s.failed, returned: s.returned, unchanged: s.unchanged, unmatched: s.unmatched },
    });
  }

  /**
   * A whole exported batch booked as one entry (CONTRACT §11): its PmtInfId or MsgId among the
   * entry's references and its total as the amount. A debit completes every processing payout of
   * the batch; a return (the bank gave the whole file back) returns every completed payout of it
   * and fails every processing one, each as a return of its own entry would (`decide`). All in one
   * transaction with the entry's record; a total that differs moves none and says by how much.
   */
  private async applyBatch(tx: Tx, actor: Actor, reportId: string, line: ReportLine): Promise<void> {
    const batch = await batches.findBatchByMessageId(tx, line.batchRefs);
    const ids = batch ? ((await batches.batchPayoutIds(tx, [batch.id])).get(batch.id) ?? []) : [];
    const locked: LockedPayout[] = [];
    for (const id of ids) locked.push({ id, payout: await batches.lockPayoutForEntry(tx, scope(actor), id) });
    const decision = decideBatch(line, batch, locked);
    const entry: EntryRecord = { position: line.position, payoutId: null, outcome: decision.outcome, reference: line.reference, amountCents: line.amountCents, currency: line.currency, detail: decision.detail };
    if (!(await batches.recordEntry(tx, reportId, entry))) return;
    const audit = { bank_report_id: reportId, bank_report_entry: line.position, batch_id: batch?.id };
    for (const move of decision.moves) {
      if (move.to === 'completed') await movePayoutIn(tx, actor, move.id, 'complete', { externalTransferId: line.reference ?? batch!.messageId, audit });
      else if (move.to === 'failed') await movePayoutIn(tx, actor, move.id, 'fail', { failureReason: move.reason, audit });
      else await returnPayoutIn(tx, actor, move.id, move.reason, audit);
    }
  }

  /** One entry: decided under the payout's lock, recorded, and the payout moved, in the step's transaction. */
  private async apply(tx: Tx, actor: Actor, reportId: string, reportLine: ReportLine): Promise<void> {
    if (reportLine.batchRefs.length > 0) return this.applyBatch(tx, actor, reportId, reportLine);
    const line = await withSharedAmount(tx, reportLine);
    const payout = line.payoutId ? await batches.lockPayoutForEntry(tx, scope(actor), line.payoutId) : undefined;
    const entry: EntryRecord = {
      position: line.position,
      payoutId: payout ? line.payoutId : null,
      outcome: 'unmatched',
      reference: line.reference,
      amountCents: line.amountCents,
      currency: line.currency,
      detail: null,
    };
    const decision = decide(line, payout);
    entry.outcome = decision.outcome;
    entry.detail = decision.detail;
    // Recorded before the move: an import of the same file beside this one that recorded the
    // entry first means this transaction moves nothing.
    if (!(await batches.recordEntry(tx, reportId, entry))) return;
    const audit = { bank_report_id: reportId, bank_report_entry: line.position };
    if (decision.outcome === 'completed') {
      await movePayoutIn(tx, actor, line.payoutId!, 'complete', { externalTransferId: decision.reference, audit });
    } else if (decision.outcome === 'failed') {
      await movePayoutIn(tx, actor, line.payoutId!, 'fail', { failureReason: decision.detail, audit });
    } else if (decision.outcome === 'returned') {
      await returnPayoutIn(tx, actor, line.payoutId!, decision.detail, audit);
    }
  }
}


/** How many of a file's schema errors a refusal names: the first few say what is wrong. */
const SCHEMA_ERRORS_SHOWN = 3;

/**
 * Refuses, before anything is applied, a report that breaks the published schema of its own
 * message version (shipped in src/outside/bank/schemas), naming the lines; and a version whose
 * schema is not shipped (the schemas' README says which and why).
 */
async function checkSchema(content: string, message: string): Promise<void> {
  if (!isShipped(message)) {
    const shipped = SHIPPED_SCHEMAS.filter((m) => m.startsWith(message.slice(0, 'camt.05x'.length)));
    throw new AppError(
      'VALIDATION_FAILED',
      `content: ${message} cannot be checked against its schema, which zarpay does not ship: nothing was applied; ask the bank for the report as ${shipped.join(', ')}`,
    );
  }
  const errors = await schemaErrors(content, message, SCHEMA_ERRORS_SHOWN + 1);
  if (errors.length === 0) return;
  const shown = errors.slice(0, SCHEMA_ERRORS_SHOWN).map((e) => (e.line === null ? e.message : `line ${e.line}: ${e.message}`));
  throw new AppError(
    'VALIDATION_FAILED',
    `content: not valid against the ${message} schema, nothing was applied: ${shown.join('; ')}${errors.length > SCHEMA_ERRORS_SHOWN ? '; and more' : ''}`,
  );
}

/**
 * A transaction of a batched entry with no amount of its own (CONTRACT §11): its amount is its
 * payout's when the entry's amount is the sum of the payouts its transactions name, all of them
 * known and in the entry's currency; otherwise the line stays without an amount and the detail says why.
 */
async function withSharedAmount(tx: Tx, line: ReportLine): Promise<ReportLine & { sharedDetail?: string }> {
  if (line.amountCents !== null || !line.payoutId || line.entry.endToEndIds.length < 2 || line.entry.amountCents === null) return line;
  const ids = line.entry.endToEndIds.map(payoutIdOf);
  const amounts = await batches.payoutAmounts(tx, ids.filter((id): id is string => id !== null));
  const own = amounts.get(line.payoutId);
  if (!own || ids.some((id) => id === null || !amounts.has(id))) return { ...line, sharedDetail: 'the entry\'s transactions carry no amounts, and not all of them name a payout' };
  const sum = [...amounts.values()].reduce((s, a) => s + a.amountCents, 0);
  if (sum !== line.entry.amountCents || [...amounts.values()].some((a) => a.currency !== line.entry.currency)) {
    return {
      ...line,
      sharedDetail: `the entry's amount ${line.entry.currency} ${decimalAmount(line.entry.amountCents)} differs from the sum of its payouts ${own.currency} ${decimalAmount(sum)} by ${decimalAmount(Math.abs(line.entry.amountCents - sum))}`,
    };
  }
  return { ...line, amountCents: own.amountCents, currency: line.entry.currency };
}

type Decision = { outcome: 'completed'; reference: string; detail: null } | { outcome: 'failed' | 'returned' | 'unchanged' | 'unmatched'; detail: string };

/** What an entry means for the payout it names (pure, given the payout as locked). */
function decide(line: ReportLine, payout: Awaited<ReturnType<typeof batches.lockPayoutForEntry>>): Decision {
  const unmatched = (detail: string): Decision => ({ outcome: 'unmatched', detail });
  if (!line.endToEndId) return unmatched('the entry names no end-to-end id');
  if (!line.payoutId || !payout) return unmatched(`no payout has the end-to-end id ${line.endToEndId}`);
  if (line.status !== 'BOOK') return unmatched(`not booked (status ${line.status || 'missing'})`);
  if (line.amountCents === null || line.currency === null) return unmatched((line as { sharedDetail?: string }).sharedDetail ?? 'the entry gives no amount for this payout');
  if (line.amountCents !== payout.amountCents || line.currency !== payout.currency) {
    return unmatched(`amount ${line.currency} ${decimalAmount(line.amountCents)} differs from the payout's ${payout.currency} ${decimalAmount(payout.amountCents)}`);
  }
  if (line.returned) {
    if (payout.status === 'processing') return { outcome: 'failed', detail: line.returnReason ?? 'returned by the bank' };
    if (payout.status === 'failed') return { outcome: 'unchanged', detail: 'already failed' };
    // After completion (CONTRACT §11): the payout stays completed, its amount comes back.
    if (payout.status === 'completed') {
      return payout.returned ? { outcome: 'unchanged', detail: 'already returned' } : { outcome: 'returned', detail: line.returnReason ?? 'returned by the bank' };
    }
    return unmatched(`returned (${line.returnReason ?? 'no reason given'}), but the payout is ${payout.status}`);
  }
  if (line.creditDebit !== 'DBIT') return unmatched('a credit to the account that is not a return');
  const reference = line.reference ?? line.endToEndId;
  if (payout.status === 'processing') return { outcome: 'completed', reference, detail: null };
  if (payout.status === 'completed' && payout.externalTransferId === reference) return { outcome: 'unchanged', detail: 'already completed' };
  return unmatched(`booked by the bank, but the payout is ${payout.status}`);
}

type LockedPayout = { id: string; payout: Awaited<ReturnType<typeof batches.lockPayoutForEntry>> };
type BatchMove = { id: string; to: 'completed'; reason?: undefined } | { id: string; to: 'failed' | 'returned'; reason: string };

/**
 * What an entry booking a whole batch means for its payouts (pure, given them as locked): the
 * entry's outcome, its detail, and each payout's move. The entry is checked against the whole
 * batch (booked, the batch's total in ZAR) before any payout moves: one that does not fit moves none.
 */
function decideBatch(
  line: ReportLine,
  batch: { messageId: string; totalCents: number } | undefined,
  payouts: readonly LockedPayout[],
): { outcome: EntryRecord['outcome']; detail: string; moves: BatchMove[] } {
  const unmatched = (detail: string) => ({ outcome: 'unmatched' as const, detail, moves: [] });
  if (!batch) return unmatched(`no exported batch has the MsgId or PmtInfId ${line.batchRefs.join(' or ')}`);
  const named = `batch ${batch.messageId}`;
  if (line.status !== 'BOOK') return unmatched(`${named}: not booked (status ${line.status || 'missing'})`);
  if (!line.returned && line.creditDebit !== 'DBIT') return unmatched(`${named}: booked as a credit that is not a return, not as the batch's debit`);
  if (line.amountCents === null || line.currency !== 'ZAR') return unmatched(`${named}: the entry gives no amount in ZAR`);
  if (line.amountCents !== batch.totalCents) {
    const what = line.returned ? 'returned amount' : 'amount';
    return unmatched(`${named}: ${what} ZAR ${decimalAmount(line.amountCents)} differs from the batch's total ZAR ${decimalAmount(batch.totalCents)} by ZAR ${decimalAmount(Math.abs(line.amountCents - batch.totalCents))}`);
  }
  if (!line.returned) {
    const moves: BatchMove[] = payouts.filter((p) => p.payout?.status === 'processing').map((p) => ({ id: p.id, to: 'completed' }));
    if (moves.length === 0) return { outcome: 'unchanged', detail: `${named}: no payout of it is processing`, moves };
    return { outcome: 'completed', detail: `${named}: ${moves.length} of ${payouts.length} payouts completed`, moves };
  }
  // The bank gave the whole file back: each payout as a return naming it alone would move it.
  const reason = line.returnReason ?? 'returned by the bank';
  const moves: BatchMove[] = [];
  for (const p of payouts) {
    if (p.payout?.status === 'processing') moves.push({ id: p.id, to: 'failed', reason });
    else if (p.payout?.status === 'completed' && !p.payout.returned) moves.push({ id: p.id, to: 'returned', reason });
  }
  const returned = moves.filter((m) => m.to === 'returned').length;
  const failed = moves.length - returned;
  if (moves.length === 0) return { outcome: 'unchanged', detail: `${named}: returned (${reason}), and no payout of it is left to return or fail`, moves };
  const counts = [returned > 0 && `${returned} returned`, failed > 0 && `${failed} failed`].filter(Boolean).join(', ');
  return { outcome: returned > 0 ? 'returned' : 'failed', detail: `${named} given back by the bank (${reason}): ${counts}, of ${payouts.length} payouts`, moves };
}
