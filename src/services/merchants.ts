import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DbOrTx } from '../db/index.ts';
import type { MerchantRow } from '../db/types.ts';
import { AppError } from '../domain/errors.ts';
import type { ApiKeyRecord, Merchant } from '../domain/payout.ts';
import {
  type CreateMerchantInput,
  type UpdateMerchantInput,
  createMerchantSchema,
  parseInput,
  updateMerchantSchema,
} from '../domain/validation.ts';
import type { ServiceDeps } from './deps.ts';
import type { KeyService } from './keys.ts';
import { webhookUrlProblem } from './webhook-http.ts';

export function toMerchant(row: MerchantRow): Merchant {
  return {
    id: row.id,
    name: row.name,
    webhookUrl: row.webhook_url,
    paymentFeeBps: row.payment_fee_bps,
    paymentFeeFixedCents: row.payment_fee_fixed_cents,
    payoutFeeCents: row.payout_fee_cents,
    autoTopup: row.auto_topup,
    redirectDomains: row.redirect_domains,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string) => UUID.test(id);

export class MerchantService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly keys: KeyService,
  ) {}

  /** Creates a merchant with an empty balance and its first secret key. */
  async create(input: unknown): Promise<{ merchant: Merchant; apiKey: ApiKeyRecord; fullKey: string }> {
    const fields: CreateMerchantInput = parseInput(createMerchantSchema, input);
    this.checkWebhookUrl(fields.webhook_url);
    return this.deps.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('merchants')
        .values({
          id: randomUUID(),
          name: fields.name,
          webhook_url: fields.webhook_url ?? null,
          payment_fee_bps: fields.payment_fee_bps ?? 0,
          payment_fee_fixed_cents: fields.payment_fee_fixed_cents ?? 0,
          payout_fee_cents: fields.payout_fee_cents ?? 0,
          auto_topup: fields.auto_topup ?? false,
          redirect_domains: fields.redirect_domains ?? [],
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await tx.insertInto('balances').values({ merchant_id: row.id }).execute();
      const issued = await this.keys.issueIn(tx, row.id);
      return { merchant: toMerchant(row), apiKey: issued.apiKey, fullKey: issued.fullKey };
    });
  }

  async update(id: string, input: unknown): Promise<Merchant> {
    const fields: UpdateMerchantInput = parseInput(updateMerchantSchema, input);
    this.checkWebhookUrl(fields.webhook_url);
    if (!isUuid(id)) throw new AppError('NOT_FOUND', 'merchant not found');
    const row = await this.deps.db
      .updateTable('merchants')
      .set({
        ...(fields.name !== undefined && { name: fields.name }),
        ...(fields.webhook_url !== undefined && { webhook_url: fields.webhook_url }),
        ...(fields.payment_fee_bps !== undefined && { payment_fee_bps: fields.payment_fee_bps }),
        ...(fields.payment_fee_fixed_cents !== undefined && { payment_fee_fixed_cents: fields.payment_fee_fixed_cents }),
        ...(fields.payout_fee_cents !== undefined && { payout_fee_cents: fields.payout_fee_cents }),
        ...(fields.auto_topup !== undefined && { auto_topup: fields.auto_topup }),
        ...(fields.redirect_domains !== undefined && { redirect_domains: fields.redirect_domains }),
        // A union computed in the UPDATE itself, so concurrent additions do not lose each other.
        ...(fields.add_redirect_domains !== undefined && {
          redirect_domains: sql<string[]>`array(select distinct d from unnest(${
            fields.redirect_domains !== undefined ? sql`${fields.redirect_domains}::text[]` : sql.ref('redirect_domains')
          } || ${fields.add_redirect_domains}::text[]) as d order by d)`,
        }),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'merchant not found');
    this.keys.forgetMerchant(id);
    return toMerchant(row);
  }

  async get(id: string, db: DbOrTx = this.deps.db): Promise<Merchant> {
    const merchants = await this.getMany([id], db);
    const m = merchants[0];
    if (!m) throw new AppError('NOT_FOUND', 'merchant not found');
    return m;
  }

  /** Merchants in the order of `ids`; `null` where there is none (a DataLoader batch function). */
  async getMany(ids: readonly string[], db: DbOrTx = this.deps.db): Promise<(Merchant | null)[]> {
    const valid = ids.filter(isUuid);
    const rows = valid.length ? await db.selectFrom('merchants').selectAll().where('id', 'in', valid).execute() : [];
    const byId = new Map(rows.map((r) => [r.id, toMerchant(r)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async list(): Promise<Merchant[]> {
    const rows = await this.deps.db.selectFrom('merchants').selectAll().orderBy('created_at').execute();
    return rows.map(toMerchant);
  }

  /** CONTRACT §6: in `prd` webhook URLs must be https (address checks happen at delivery). */
  private checkWebhookUrl(url: string | null | undefined) {
    if (url && this.deps.config.serviceEnv === 'prd' && !url.startsWith('https://')) {
      throw new AppError('VALIDATION_FAILED', 'webhook_url: must use https');
    }
    // Literal loopback/private hosts are refused up front; names are checked again at delivery.
    const problem = url && this.deps.config.serviceEnv === 'prd' ? webhookUrlProblem(url, true) : null;
    if (problem) throw new AppError('VALIDATION_FAILED', `webhook_url: ${problem}`);
  }
}
