import type { Command } from 'commander';
import { ACCOUNTING_CSV_HEADER, type AccountingRow, accountingCsvLine } from '../domain/accounting-statement.ts';
import { STATEMENT_CSV_HEADER, type StatementEntry, statementCsvLine, statementEntryJson } from '../domain/statement.ts';
import { uuid } from './args.ts';
import { op, print } from './output.ts';

const ROW = 'date type description reference orderReference bankReference gross fee net balance';
const ENTRY = 'entryId postedAt type reference amountCents balanceAfterCents description';

/** `zarpay statement MERCHANT_ID --from D --to D [--csv|--accounting]` (CONTRACT §10): the REST statement's JSON, or its CSV. */
export function statementCommands(program: Command) {
  program
    .command('statement')
    .description('a merchant\'s statement: the movements of its balance over days in Africa/Johannesburg (both included, at most 366)')
    .argument('<merchant-id>', 'the merchant', uuid('<merchant-id>'))
    .requiredOption('--from <date>', 'the first day, YYYY-MM-DD')
    .requiredOption('--to <date>', 'the last day, YYYY-MM-DD')
    .option('--csv', 'print the entries as CSV (as GET /api/v1/statements with Accept: text/csv)')
    .option('--accounting', 'print the statement for bookkeepers as CSV (as GET /api/v1/statements?format=accounting)')
    .action(async (merchantId: string, opts: { from: string; to: string; csv?: boolean; accounting?: boolean }) => {
      if (opts.accounting) {
        const data = await op(
          `query($m: UUID!, $from: String!, $to: String!) { statement(merchantId: $m, from: $from, to: $to) {
             accountingRows { ${ROW} } } }`,
          { m: merchantId, from: opts.from, to: opts.to },
          { m: '<merchant-id>', merchantId: '<merchant-id>', from: '--from', to: '--to' },
        );
        process.stdout.write(`${ACCOUNTING_CSV_HEADER}\r\n${(data.statement.accountingRows as AccountingRow[]).map(accountingCsvLine).join('')}`);
        return;
      }
      const data = await op(
        `query($m: UUID!, $from: String!, $to: String!) { statement(merchantId: $m, from: $from, to: $to) {
           from to openingBalanceCents closingBalanceCents total entries { ${ENTRY} } } }`,
        { m: merchantId, from: opts.from, to: opts.to },
        { m: '<merchant-id>', merchantId: '<merchant-id>', from: '--from', to: '--to' },
      );
      const s = data.statement;
      const entries: StatementEntry[] = s.entries.map((e: Record<string, any>) => ({ ...e, type: String(e.type).toLowerCase(), postedAt: new Date(e.postedAt) }));
      if (opts.csv) {
        process.stdout.write(`${STATEMENT_CSV_HEADER}\r\n${entries.map(statementCsvLine).join('')}`);
        return;
      }
      print({
        from: s.from,
        to: s.to,
        opening_balance_cents: s.openingBalanceCents,
        closing_balance_cents: s.closingBalanceCents,
        entries: entries.map(statementEntryJson),
        total: s.total,
      });
    });
}
