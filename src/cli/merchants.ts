import { type Command, Option } from 'commander';
import { bool, collect, oneOf, uuid, whole } from './args.ts';
import { CliError, restShape } from './client.ts';
import { API_KEY, BALANCE, MERCHANT } from './fields.ts';
import { formatOption, op, print } from './output.ts';
import { merchantTable, wantsTable } from './table.ts';

/** `zarpay merchant create|update|list|show` (CONTRACT §7). */

/** Input fields by the flag that sets them, for refusals in the language of flags. */
const FLAGS = {
  name: '--name',
  webhookUrl: '--webhook-url',
  paymentFeeBps: '--payment-fee-bps',
  paymentFeeFixedCents: '--payment-fee-fixed-cents',
  payoutFeeCents: '--payout-fee-cents',
  autoTopup: '--auto-topup',
  addRedirectDomains: '--allow-redirect-domain',
  supportContact: '--support-contact',
  minCents: '--min-cents',
  maxCents: '--max-cents',
  id: '<merchant-id>',
};

export function merchantShape(m: Record<string, unknown>) {
  const { id, ...rest } = restShape(m) as Record<string, unknown>;
  return { merchant_id: id, ...rest };
}

function settings(opts: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'webhookUrl', 'paymentFeeBps', 'paymentFeeFixedCents', 'payoutFeeCents', 'supportContact'] as const) {
    if (opts[key] !== undefined) out[key] = opts[key];
  }
  return out;
}

function withSettings(cmd: Command) {
  return cmd
    .option('--webhook-url <url>', 'where payout and payment events are delivered (https in prd)')
    .option('--support-contact <contact>', 'where customers get help, shown on the payment page: an e-mail address, a phone number or an https URL')
    .option('--payment-fee-bps <bps>', 'payment fee in basis points, 0 to 10000 (250 = 2.5 %)', whole('--payment-fee-bps', 0, 10_000))
    .option('--payment-fee-fixed-cents <cents>', 'fixed payment fee in cents, added to the proportional one', whole('--payment-fee-fixed-cents', 0, 1_000_000))
    .option('--payout-fee-cents <cents>', 'flat fee of each payout in cents', whole('--payout-fee-cents', 0, 1_000_000));
}

export function merchantCommands(program: Command) {
  const merchant = program.command('merchant').description('create, change, list and show merchants');

  withSettings(
    merchant
      .command('create')
      .description('create a merchant and its first secret key (printed once, in api_key)')
      .requiredOption('--name <name>', 'trading name shown on the payment page'),
  )
    .option('--auto-topup', 'credit captured payments (net of fees) to the payout balance')
    .action(async (opts) => {
      const data = await op(
        `mutation($input: MerchantInput!) { createMerchant(input: $input) { merchant { ${MERCHANT} } apiKey { ${API_KEY} } fullKey } }`,
        { input: { ...settings(opts), ...(opts.autoTopup && { autoTopup: true }) } },
        FLAGS,
      );
      const { merchant: m, apiKey, fullKey } = data.createMerchant;
      print({ ...merchantShape(m), api_key: fullKey, api_key_record: restShape(apiKey) });
    });

  withSettings(merchant.command('update').description('change a merchant\'s settings; only the flags given change').argument('<merchant-id>', 'the merchant', uuid('<merchant-id>')))
    .addOption(new Option('--auto-topup <bool>', 'true or false').argParser(bool('--auto-topup')))
    .option('--allow-redirect-domain <domain>', 'allow-list a redirect domain (repeatable)', collect)
    .option('--name <name>', 'new trading name')
    .action(async (id, opts) => {
      const input = {
        ...settings(opts),
        ...(opts.autoTopup !== undefined && { autoTopup: opts.autoTopup }),
        ...(opts.allowRedirectDomain && { addRedirectDomains: opts.allowRedirectDomain }),
      };
      const data = await op(`mutation($id: UUID!, $input: MerchantInput!) { updateMerchant(id: $id, input: $input) { merchant { ${MERCHANT} } } }`, { id, input }, FLAGS);
      print(merchantShape(data.updateMerchant.merchant));
    });

  merchant
    .command('limits')
    .description('set a merchant\'s payment limits: the smallest and largest payment it takes, in cents (each 100 to 10000000)')
    .argument('<merchant-id>', 'the merchant', uuid('<merchant-id>'))
    .requiredOption('--min-cents <cents>', 'the smallest payment, in cents', whole('--min-cents', 100, 10_000_000))
    .requiredOption('--max-cents <cents>', 'the largest payment, in cents', whole('--max-cents', 100, 10_000_000))
    .action(async (id, opts) => {
      const input = { paymentLimits: { minCents: opts.minCents, maxCents: opts.maxCents } };
      const data = await op(`mutation($id: UUID!, $input: MerchantInput!) { updateMerchant(id: $id, input: $input) { merchant { ${MERCHANT} } } }`, { id, input }, FLAGS);
      print(merchantShape(data.updateMerchant.merchant));
    });

  merchant
    .command('list')
    .description('every merchant, oldest first')
    .addOption(formatOption())
    .action(async (opts) => {
      const data = await op(`{ merchants { ${MERCHANT} } }`);
      const merchants = (data.merchants as Record<string, unknown>[]).map(merchantShape);
      if (wantsTable(opts.format)) process.stdout.write(merchantTable(merchants) + '\n');
      else print({ merchants, total: merchants.length });
    });

  merchant
    .command('show')
    .description('one merchant with its balance and key records (never the keys)')
    .argument('<merchant-id>', 'the merchant', uuid('<merchant-id>'))
    .action(async (id) => {
      const data = await op(
        `query($id: UUID!) { merchant(id: $id) { ${MERCHANT} apiKeys { ${API_KEY} } } balance(merchantId: $id) { ${BALANCE} } }`,
        { id },
        FLAGS,
      );
      if (!data.merchant) throw new CliError('NOT_FOUND', `no merchant ${id}`);
      const { apiKeys, ...merchantFields } = data.merchant;
      const { merchant_id: _same, ...balance } = restShape(data.balance) as Record<string, unknown>;
      print({ ...merchantShape(merchantFields), balance, api_keys: restShape(apiKeys) });
    });

  merchant
    .command('invite')
    .description('invite a person to the merchant\'s dashboard: prints { invite_url, expires_at } (valid 72 hours, once; e-mailed when SMTP_URL is set)')
    .argument('<merchant-id>', 'the merchant', uuid('<merchant-id>'))
    .requiredOption('--email <email>', 'their e-mail address: what they sign in with')
    .requiredOption('--role <role>', 'owner, developer or viewer', oneOf('--role', ['owner', 'developer', 'viewer']))
    .action(async (merchantId, opts) => {
      const data = await op(
        `mutation($merchantId: UUID, $email: String!, $role: PersonRole!) { invitePerson(merchantId: $merchantId, email: $email, role: $role) { inviteUrl expiresAt emailed person { id email role } } }`,
        { merchantId, email: opts.email, role: String(opts.role).toUpperCase() },
        { ...FLAGS, email: '--email', role: '--role', merchantId: '<merchant-id>' },
      );
      const { inviteUrl, expiresAt, emailed, person } = data.invitePerson;
      print({ invite_url: inviteUrl, expires_at: expiresAt, emailed, person_id: person.id, email: person.email, role: String(person.role).toLowerCase() });
    });
}
