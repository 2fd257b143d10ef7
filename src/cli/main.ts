import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { AppError } from '../domain/errors.ts';
import { PAYOUT_STATUSES } from '../domain/payout.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { oneOf, uuid, whole } from './args.ts';
import { CliError, type FlagNames, restShape } from './client.ts';
import { eventCommands } from './events.ts';
import { API_KEY, BALANCE, PAYOUT } from './fields.ts';
import { localCommands } from './local.ts';
import { merchantCommands } from './merchants.ts';
import { paymentCommands } from './payments.ts';
import { payoutBatchCommands } from './payout-batches.ts';
import { refundCommands } from './refunds.ts';
import { statementCommands } from './statements.ts';
import { formatOption, op, print } from './output.ts';
import { payoutTable, statsTable, wantsTable } from './table.ts';

/**
 * `zarpay`: the operator CLI of CONTRACT §7, a thin client of the operator GraphQL API.
 * Success: one JSON document on stdout (or a table on a terminal), exit 0. Failure:
 * `{code, message}` on stderr, exit 1. Only what `--help` needs is loaded up front: commands
 * that open the database or a stream load their modules when they run.
 */


/** The package's version, for `--version`. */
function version(): string {
  try {
    return (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

const PAYOUT_FLAGS: FlagNames = { id: '<payout-id>', reason: '--reason', externalTransferId: '--transfer-id' };

/** One page of payouts after skipping `offset` of them (the API pages by cursor; the CLI walks to the offset). */
async function payoutPage(filter: { s: string | null; m: string | null }, offset: number, limit: number) {
  const flags = { n: '--limit', m: '--merchant', s: '--status' };
  let after: string | null = null;
  for (let skipped = 0; skipped < offset; ) {
    const n = Math.min(100, offset - skipped);
    const page: any = await op(
      `query($s: PayoutStatus, $m: UUID, $n: Int, $a: String) { payouts(first: $n, after: $a, status: $s, merchantId: $m) { edges { cursor } pageInfo { hasNextPage } } }`,
      { ...filter, n, a: after },
      flags,
    );
    const edges = page.payouts.edges as { cursor: string }[];
    if (edges.length === 0) break;
    after = edges[edges.length - 1]!.cursor;
    skipped += edges.length;
    if (!page.payouts.pageInfo.hasNextPage) return { payouts: [], total: await payoutCount(filter) };
  }
  const data: any = await op(
    `query($s: PayoutStatus, $m: UUID, $n: Int, $a: String) { payouts(first: $n, after: $a, status: $s, merchantId: $m) { totalCount edges { node { ${PAYOUT} } } } }`,
    { ...filter, n: limit, a: after },
    flags,
  );
  return { payouts: data.payouts.edges.map((e: { node: unknown }) => restShape(e.node)) as Record<string, any>[], total: data.payouts.totalCount as number };
}

async function payoutCount(filter: { s: string | null; m: string | null }): Promise<number> {
  const data: any = await op(`query($s: PayoutStatus, $m: UUID) { payouts(first: 0, status: $s, merchantId: $m) { totalCount } }`, filter);
  return data.payouts.totalCount;
}

export function buildProgram(): Command {
  const program = new Command('zarpay')
    .description('The zarpay operator CLI: merchants, keys, balances, the payout approval queue, payments and webhooks.\nTalks to ZARPAY_URL (default http://localhost:$PORT) with OPERATOR_TOKEN (in tst/dev: the token file under DATA_DIR).')
    .version(version(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showHelpAfterError(false);

  merchantCommands(program);

  const key = program.command('key').description('issue, revoke and expire merchants\' secret API keys');
  key
    .command('issue')
    .description('issue another secret key for a merchant (printed once, in full_key)')
    .argument('<merchant-id>', 'the merchant', uuid('<merchant-id>'))
    .action(async (merchantId) => {
      const data = await op(`mutation($m: UUID!) { issueApiKey(merchantId: $m) { apiKey { ${API_KEY} } fullKey } }`, { m: merchantId }, { m: '<merchant-id>' });
      print({ ...(restShape(data.issueApiKey.apiKey) as object), full_key: data.issueApiKey.fullKey });
    });
  for (const [name, field, what] of [
    ['revoke', 'revokeApiKey', 'revoke a key at once (refused from the next request on)'],
    ['expire', 'expireApiKey', 'mark a key expired (refused from the next request on)'],
  ] as const) {
    key
      .command(name)
      .description(what)
      .argument('<kid>', 'the key id: the 12 characters after sec1-{env}-')
      .action(async (kid) => {
        const data = await op(`mutation($kid: String!) { ${field}(kid: $kid) { apiKey { ${API_KEY} } } }`, { kid }, { kid: '<kid>' });
        print(restShape(data[field].apiKey));
      });
  }

  program
    .command('balance')
    .description('merchants\' payout balances')
    .command('credit')
    .description('credit a merchant\'s payout balance (money received outside zarpay)')
    .argument('<merchant-id>', 'the merchant', uuid('<merchant-id>'))
    .argument('<cents>', 'the amount in cents, greater than 0 (R 1 000.00 is 100000)', whole('<cents>', 1, 1e13))
    .option('--memo <text>', 'why the credit was made (kept in the ledger)')
    .action(async (merchantId, cents, opts) => {
      const data = await op(
        `mutation($m: UUID!, $c: Money!, $memo: String) { creditBalance(merchantId: $m, amountCents: $c, memo: $memo) { balance { ${BALANCE} } } }`,
        { m: merchantId, c: cents, memo: opts.memo ?? null },
        { m: '<merchant-id>', c: '<cents>', amountCents: '<cents>', memo: '--memo' },
      );
      print(restShape(data.creditBalance.balance));
    });

  statementCommands(program);

  const payout = program.command('payout').description('the payout approval queue: list, show, approve, reject, process, complete, fail, cancel, return; bank files (batch)');
  const move = (name: string, what: string, field: string, extra: (cmd: Command) => Command, vars: (opts: any) => Record<string, unknown>, argDefs: string) =>
    extra(payout.command(name).description(what).argument('<payout-id>', 'the payout', uuid('<payout-id>'))).action(async (id, opts) => {
      const data = await op(
        `mutation($id: UUID!${argDefs}) { ${field}(id: $id${Object.keys(vars({})).map((k) => `, ${k}: $${k}`).join('')}) { payout { ${PAYOUT} } } }`,
        { id, ...vars(opts) },
        PAYOUT_FLAGS,
      );
      print(restShape(data[field].payout));
    });
  const none = (c: Command) => c;
  move('approve', 'approve a pending payout', 'approvePayout', none, () => ({}), '');
  move('reject', 'reject a pending payout: its reserve returns to the balance', 'rejectPayout', (c) => c.requiredOption('--reason <reason>', 'why, shown to the merchant'), (o) => ({ reason: o.reason }), ', $reason: String!');
  move('process', 'mark an approved payout as sent to the bank', 'startPayoutTransfer', none, () => ({}), '');
  move(
    'complete',
    'mark a processing payout as paid: the amount and fee leave the balance',
    'completePayout',
    (c) => c.option('--transfer-id <id>', 'the bank transfer reference (default: a generated EFT-…)'),
    (o) => ({ externalTransferId: o.transferId ?? null }),
    ', $externalTransferId: String',
  );
  move('fail', 'mark a processing payout as failed at the bank: its reserve returns', 'failPayout', (c) => c.requiredOption('--reason <reason>', 'what the bank said'), (o) => ({ reason: o.reason }), ', $reason: String!');
  move('cancel', 'cancel a pending or approved payout: its reserve returns', 'cancelPayout', none, () => ({}), '');
  move(
    'return',
    'record the bank\'s return of a completed payout (an unpaid reported outside a bank report): it stays completed, its amount comes back to the balance, the fee stays',
    'returnPayout',
    (c) => c.requiredOption('--reason <reason>', 'what the bank said, e.g. "AC04 closed account"'),
    (o) => ({ reason: o.reason }),
    ', $reason: String!',
  );
  payout
    .command('bank-account')
    .description('the full bank account of a payout, to make the transfer by hand (audited, with the reason)')
    .argument('<payout-id>', 'the payout', uuid('<payout-id>'))
    .requiredOption('--reason <reason>', 'why it is needed, for the audit log')
    .action(async (id, opts) => {
      const data = await op(
        `mutation($id: UUID!, $reason: String!) { revealPayoutBankAccount(id: $id, reason: $reason) { bankAccount { bankName branchCode accountHolder accountNumber } } }`,
        { id, reason: opts.reason },
        { id: '<payout-id>', reason: '--reason' },
      );
      print({ payout_id: id, ...(restShape(data.revealPayoutBankAccount.bankAccount) as object) });
    });
  payout
    .command('list')
    .description('payouts, newest first, and how many match')
    .option('--status <status>', PAYOUT_STATUSES.join(', '), oneOf('--status', PAYOUT_STATUSES))
    .option('--merchant <id>', 'one merchant only', uuid('--merchant'))
    .option('--limit <n>', 'at most this many (1 to 100)', whole('--limit', 1, 100), 50)
    .option('--offset <n>', 'skip this many first (for the next page: the previous offset plus the limit)', whole('--offset', 0, 1_000_000), 0)
    .addOption(formatOption())
    .action(async (opts) => {
      const filter = { s: opts.status === undefined ? null : String(opts.status).toUpperCase(), m: opts.merchant ?? null };
      const result = await payoutPage(filter, opts.offset, opts.limit);
      if (wantsTable(opts.format)) process.stdout.write(payoutTable(result.payouts, result.total, opts.offset) + '\n');
      else print(result);
    });

  payoutBatchCommands(payout);

  program
    .command('stats')
    .description('payouts by state, amounts reserved, the approval queue, failing webhooks, refunds overdue or failed')
    .addOption(formatOption())
    .action(async (opts) => {
      const data = await op(
        `{ stats { payouts { status count grossCents } reservedCents pendingApprovalCents oldestPendingPayoutAt deliveriesFailed deliveriesPending mismatchedNotifications
          refundsPending refundsPendingStale oldestPendingRefundAt refundsFailed mismatchedRefundNotifications refundsOwedPending refundsOwedSucceeded refundsOwedFailed
          sealedValuesUnreadable { kind count } } }`,
      );
      const stats = restShape(data.stats) as Record<string, unknown>;
      if (wantsTable(opts.format)) process.stdout.write(statsTable(stats) + '\n');
      else print(stats);
    });

  program
    .command('ledger')
    .description('the double-entry journal')
    .command('verify')
    .description('recompute every balance from the journal; exit 1 when an invariant fails')
    .action(async () => {
      const data = await op(`{ ledgerVerification }`);
      const report = data.ledgerVerification;
      if (!report.ok) {
        process.stderr.write(JSON.stringify({ code: 'LEDGER_INVARIANT_FAILED', message: `${report.problems.length} invariant(s) failed`, ...report }) + '\n');
        process.exitCode = 1;
        return;
      }
      print(report);
    });

  program
    .command('audit')
    .description('who did what to payments and payouts, newest first')
    .option('--payment <id>', 'one payment only', uuid('--payment'))
    .option('--payout <id>', 'one payout only', uuid('--payout'))
    .option('--limit <n>', 'at most this many (1 to 500)', whole('--limit', 1, 500), 100)
    .action(async (opts) => {
      const data = await op(
        `query($p: UUID, $o: UUID, $n: Int) { auditLog(paymentId: $p, payoutId: $o, first: $n) { id at actor action merchantId paymentId payoutId detail } }`,
        { p: opts.payment ?? null, o: opts.payout ?? null, n: opts.limit },
        { p: '--payment', o: '--payout', n: '--limit' },
      );
      print(data.auditLog.map((e: Record<string, unknown>) => ({ ...(restShape(e) as object), detail: e.detail })));
    });

  localCommands(program);
  paymentCommands(program);
  refundCommands(program);
  eventCommands(program);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  for (const cmd of [program, ...allCommands(program)]) {
    cmd.exitOverride();
    // Help and the version go to stdout as usual; commander's own error lines are replaced by ours.
    cmd.configureOutput({ writeErr: (text) => (/^error:/.test(text) ? undefined : process.stderr.write(text)), outputError: () => {} });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      fail('VALIDATION_FAILED', commanderMessage(e));
      return 1;
    }
    // A CliError, or a refusal with a contract code from a command that works locally (the
    // embedded database held by another process is SERVICE_UNAVAILABLE).
    if (e instanceof CliError || e instanceof AppError) {
      fail(e.code, e.message);
      return 1;
    }
    fail('INTERNAL_ERROR', (e as Error).message);
    return 1;
  }
}

/** Commander's refusal without its prefix, and with our own words where a parser gave them. */
function commanderMessage(e: CommanderError): string {
  const text = e.message.replace(/^error: /, '');
  // "command-argument value 'x' is invalid for argument 'cents'. <cents> must be …": the reason says it all.
  const reason = /is invalid(?: for argument '[^']+')?\. (.*)$/s.exec(text)?.[1];
  if (reason) return reason;
  if (e.code === 'commander.unknownCommand' || e.code === 'commander.unknownOption') return `${text} (zarpay --help lists them)`;
  return text;
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

function fail(code: string, message: string) {
  process.stderr.write(JSON.stringify({ code, message }) + '\n');
}
