import { parseWire } from '../../rest/wire.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/index.ts';
import { createPayoutInput } from '../../src/domain/payout-input.ts';
import { bootOn } from '../../src/boot.ts';

/**
 * Creates `n` payouts for the merchant of `key` through zarpay's own services (what the REST
 * route calls), not over HTTP: its `payout_create` budget (50 a minute) would make the set-up
 * take minutes. `env` is the instances' own, so keys and bank details agree with theirs.
 */
export async function seedPayouts(env: Record<string, string>, key: string, n: number) {
  const config = loadConfig({ ...env, PORT: '0' });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: 'unused', poolSize: 2 });
  const { services } = await bootOn(config, database);
  try {
    const actor = await services.keys.authenticate(key);
    for (let k = 0; k < n; k++) {
      const body = {
        amount_cents: 1_000 + k,
        currency: 'ZAR',
        payout_method: 'eft',
        merchant_reference: `leaked-${k}`,
        payment_details: { account_number: '62012345678', branch_code: '250655', account_holder: 'Leaky Shop', bank_name: 'FNB' },
      };
      await services.payouts.create(actor, parseWire(createPayoutInput, body));
    }
  } finally {
    // Closes the database too.
    await services.stop();
  }
}
