import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CliError, graphql, resolveTarget, restShape } from './client.ts';
import { API_KEY, BALANCE, MERCHANT, PAYOUT } from './fields.ts';
import { localCommands } from './local.ts';
import { type OutputFormat, payoutTable, statsTable, wantsTable } from './table.ts';
import { paymentCommands } from './payments.ts';
import { eventCommands } from './events.ts';

/**
 * `zarpay`: the operator CLI of CONTRACT §7, a thin client of the operator GraphQL API.
 * Success: one JSON document on stdout, exit 0. Failure: `{code, message}` on stderr, exit 1.
 */

const print = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');

const wholeNumber = (name: string) => (raw: string) => {
  if (!/^\d+$/.test(raw)) throw new InvalidArgumentError(`${name} must be a whole number`);
  return Number(raw);
};
const bool = (raw: string) => {
  if (raw !== 'true' && raw !== 'false') throw new InvalidArgumentError('expected true or false');
  return raw === 'true';
};
const collect = (value: string, previous: string[] = []) => [...previous, value];

function merchantShape(m: Record<string, unknown>) {
  const { id, ...rest } = restShape(m) as Record<string, unknown>;
  return { merchant_id: id, ...rest };
}

async function op<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return graphql<T>(resolveTarget(), query, variables);
}

function feeFields(opts: Record<string, unknown>) {
  return {
    ...(opts.webhookUrl !== undefined && { webhookUrl: opts.webhookUrl }),
    ...(opts.paymentFeeBps !== undefined && { paymentFeeBps: opts.paymentFeeBps }),
    ...(opts.paymentFeeFixedCents !== undefined && { paymentFeeFixedCents: opts.paymentFeeFixedCents }),
    ...(opts.payoutFeeCents !== undefined && { payoutFeeCents: opts.payoutFeeCents }),
  };
}

function withFeeOptions(cmd: Command) {
  return cmd
    .option('--webhook-url <url>', 'where payout and payment events are delivered')
    .option('--payment-fee-bps <bps>', 'payment fee in basis points', wholeNumber('--payment-fee-bps'))
    .option('--payment-fee-fixed-cents <cents>', 'fixed payment fee in cents', wholeNumber('--payment-fee-fixed-cents'))
    .option('--payout-fee-cents <cents>', 'flat payout fee in cents', wholeNumber('--payout-fee-cents'));
}

const formatOption = () =>
  new Option('--format <format>', 'json, table, or auto: a table on a terminal, JSON otherwise')
    .choices(['auto', 'json', 'table'] satisfies OutputFormat[])
    .default('auto');

export function buildProgram(): Command {
  const program = new Command('zarpay').description('zarpay operator CLI').showHelpAfterError(false);

  const merchant = program.command('merchant').description('merchants');
  withFeeOptions(merchant.command('create').requiredOption('--name <name>', 'trading name shown on the payment page'))
    .option('--auto-topup', 'credit captured payments (net of fees) to the payout balance')
    .action(async (opts) => {
      const data = await op(
        `mutation($input: MerchantInput!) { createMerchant(input: $input) { merchant { ${MERCHANT} } apiKey { ${API_KEY} } fullKey } }`,
        { input: { name: opts.name, ...feeFields(opts), ...(opts.autoTopup && { autoTopup: true }) } },
      );
      const { merchant: m, apiKey, fullKey } = data.createMerchant;
      print({ ...merchantShape(m), api_key: fullKey, api_key_record: restShape(apiKey) });
    });
  withFeeOptions(merchant.command('update').argument('<id>', 'merchant id'))
    .addOption(new Option('--auto-topup <bool>', 'true or false').argParser(bool))
    .option('--allow-redirect-domain <domain>', 'allow-list a redirect domain (repeatable)', collect)
    .option('--name <name>', 'new trading name')
    .action(async (id, opts) => {
      const input = {
        ...feeFields(opts),
        ...(opts.name !== undefined && { name: opts.name }),
        ...(opts.autoTopup !== undefined && { autoTopup: opts.autoTopup }),
        ...(opts.allowRedirectDomain && { addRedirectDomains: opts.allowRedirectDomain }),
      };
      const data = await op(`mutation($id: UUID!, $input: MerchantInput!) { updateMerchant(id: $id, input: $input) { merchant { ${MERCHANT} } } }`, {
        id,
        input,
      });
      print(merchantShape(data.updateMerchant.merchant));
    });

  const key = program.command('key').description('secret API keys');
  key
    .command('issue')
    .argument('<merchant-id>')
    .action(async (merchantId) => {
      const data = await op(`mutation($m: UUID!) { issueApiKey(merchantId: $m) { apiKey { ${API_KEY} } fullKey } }`, { m: merchantId });
      print({ ...(restShape(data.issueApiKey.apiKey) as object), full_key: data.issueApiKey.fullKey });
    });
  for (const [name, field] of [
    ['revoke', 'revokeApiKey'],
    ['expire', 'expireApiKey'],
  ] as const) {
    key
      .command(name)
      .argument('<kid>')
      .action(async (kid) => {
        const data = await op(`mutation($kid: String!) { ${field}(kid: $kid) { apiKey { ${API_KEY} } } }`, { kid });
        print(restShape(data[field].apiKey));
      });
  }

  program
    .command('balance')
    .description('payout balances')
    .command('credit')
    .argument('<merchant-id>')
    .argument('<cents>', 'amount in cents', wholeNumber('CENTS'))
    .option('--memo <text>', 'why the credit was made')
    .action(async (merchantId, cents, opts) => {
      const data = await op(
        `mutation($m: UUID!, $c: Money!, $memo: String) { creditBalance(merchantId: $m, amountCents: $c, memo: $memo) { balance { ${BALANCE} } } }`,
        { m: merchantId, c: cents, memo: opts.memo ?? null },
      );
      print(restShape(data.creditBalance.balance));
    });

  const payout = program.command('payout').description('the payout approval queue');
  const move = (name: string, field: string, extra: (cmd: Command) => Command, vars: (opts: any) => Record<string, unknown>, argDefs: string) =>
    extra(payout.command(name).argument('<id>', 'payout id')).action(async (id, opts) => {
      const data = await op(`mutation($id: UUID!${argDefs}) { ${field}(id: $id${Object.keys(vars({})).map((k) => `, ${k}: $${k}`).join('')}) { payout { ${PAYOUT} } } }`, {
        id,
        ...vars(opts),
      });
      print(restShape(data[field].payout));
    });
  const none = (c: Command) => c;
  move('approve', 'approvePayout', none, () => ({}), '');
  move('reject', 'rejectPayout', (c) => c.requiredOption('--reason <reason>'), (o) => ({ reason: o.reason }), ', $reason: String!');
  move('process', 'startPayoutTransfer', none, () => ({}), '');
  move(
    'complete',
    'completePayout',
    (c) => c.option('--transfer-id <id>', 'the bank transfer reference'),
    (o) => ({ externalTransferId: o.transferId ?? null }),
    ', $externalTransferId: String',
  );
  move('fail', 'failPayout', (c) => c.requiredOption('--reason <reason>'), (o) => ({ reason: o.reason }), ', $reason: String!');
  move('cancel', 'cancelPayout', none, () => ({}), '');
  payout
    .command('list')
    .option('--status <status>', 'pending, approved, processing, completed, failed or rejected')
    .option('--merchant <id>', 'one merchant only')
    .option('--limit <n>', 'at most this many (1 to 100)', wholeNumber('--limit'), 50)
    .addOption(formatOption())
    .action(async (opts) => {
      const status = opts.status === undefined ? null : String(opts.status).toUpperCase();
      const data = await op(
        `query($s: PayoutStatus, $m: UUID, $n: Int) { payouts(first: $n, status: $s, merchantId: $m) { totalCount edges { node { ${PAYOUT} } } } }`,
        { s: status, m: opts.merchant ?? null, n: opts.limit },
      );
      const result = { payouts: data.payouts.edges.map((e: { node: unknown }) => restShape(e.node)), total: data.payouts.totalCount };
      if (wantsTable(opts.format)) process.stdout.write(payoutTable(result.payouts, result.total) + '\n');
      else print(result);
    });

  program
    .command('stats')
    .description('payouts by state, amounts reserved, the approval queue')
    .addOption(formatOption())
    .action(async (opts) => {
      const data = await op(`{ stats { payouts { status count grossCents } reservedCents pendingApprovalCents oldestPendingPayoutAt deliveriesFailed deliveriesPending } }`);
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

  localCommands(program);
  paymentCommands(program);
  eventCommands(program);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  program.exitOverride();
  program.configureOutput({ writeErr: () => {}, outputError: () => {} });
  for (const cmd of allCommands(program)) {
    cmd.exitOverride();
    cmd.configureOutput({ writeErr: () => {}, outputError: () => {} });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      fail('VALIDATION_FAILED', e.message.replace(/^error: /, ''));
      return 1;
    }
    if (e instanceof CliError) {
      fail(e.code, e.message);
      return 1;
    }
    fail('INTERNAL_ERROR', (e as Error).message);
    return 1;
  }
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

function fail(code: string, message: string) {
  process.stderr.write(JSON.stringify({ code, message }) + '\n');
}
