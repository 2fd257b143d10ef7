import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openBalance } from '../db/ledger.ts';
import { toMerchant } from '../db/merchants.ts';
import { type Actor, covers, requireOperator, scope } from '../domain/actor.ts';
import type { ApiKeyRecord } from '../domain/api-key.ts';
import { AppError, fieldError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import type { CreateMerchantInput, Merchant, UpdateMerchantInput } from '../domain/merchant.ts';
import type { ServiceDeps } from './deps.ts';
import type { KeyService } from './keys.ts';
import { webhookUrlProblem } from '../domain/webhook-url.ts';

const notFound = () => new AppError('NOT_FOUND', 'merchant not found');

/** Merchants: the operator creates and changes them; a merchant reads itself. */
export class MerchantService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly keys: KeyService,
  ) {}

  /** Creates a merchant with an empty balance and its first secret key (operator). */
  async create(actor: Actor, input: CreateMerchantInput): Promise<{ merchant: Merchant; apiKey: ApiKeyRecord; fullKey: string }> {
    requireOperator(actor);
    this.checkWebhookUrl(input.webhookUrl);
    const created = await this.deps.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('merchants')
        .values({
          id: randomUUID(),
          name: input.name,
          webhook_url: input.webhookUrl,
          payment_fee_bps: input.paymentFeeBps ?? 0,
          payment_fee_fixed_cents: input.paymentFeeFixedCents ?? 0,
          payout_fee_cents: input.payoutFeeCents ?? 0,
          auto_topup: input.autoTopup ?? false,
          redirect_domains: input.redirectDomains ?? [],
          support_contact: input.supportContact ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await openBalance(tx, row.id);
      const issued = await this.keys.issueIn(tx, row.id);
      return { merchant: toMerchant(row), ...issued };
    });
    this.keys.keyIssued(created.apiKey.kid);
    return created;
  }

  /**
   * The operator changes a merchant; a merchant may change its own webhook URL. Only what the
   * input gives changes.
   */
  async update(actor: Actor, id: string, input: UpdateMerchantInput): Promise<Merchant> {
    const onlyWebhookUrl = Object.entries(input).every(([k, v]) => k === 'webhookUrl' || v === undefined);
    if (actor.kind !== 'operator' && !(actor.kind === 'merchant' && onlyWebhookUrl)) requireOperator(actor);
    if (!isUuid(id) || !covers(scope(actor), id.toLowerCase())) throw notFound();
    this.checkWebhookUrl(input.webhookUrl);
    const row = await this.deps.db
      .updateTable('merchants')
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.webhookUrl !== undefined && { webhook_url: input.webhookUrl }),
        ...(input.paymentFeeBps !== undefined && { payment_fee_bps: input.paymentFeeBps }),
        ...(input.paymentFeeFixedCents !== undefined && { payment_fee_fixed_cents: input.paymentFeeFixedCents }),
        ...(input.payoutFeeCents !== undefined && { payout_fee_cents: input.payoutFeeCents }),
        ...(input.autoTopup !== undefined && { auto_topup: input.autoTopup }),
        ...(input.supportContact !== undefined && { support_contact: input.supportContact }),
        ...(input.redirectDomains !== undefined && { redirect_domains: input.redirectDomains }),
        // A union computed in the UPDATE itself, so concurrent additions do not lose each other.
        ...(input.addRedirectDomains !== undefined && {
          redirect_domains: sql<string[]>`array(select distinct d from unnest(${
            input.redirectDomains !== undefined ? sql`${input.redirectDomains}::text[]` : sql.ref('redirect_domains')
          } || ${input.addRedirectDomains}::text[]) as d order by d)`,
        }),
        updated_at: sql`now()`,
      })
      .where('id', '=', id.toLowerCase())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound();
    this.keys.forgetMerchant(row.id);
    return toMerchant(row);
  }

  async get(actor: Actor, id: string): Promise<Merchant> {
    const [m] = await this.getMany(actor, [id]);
    if (!m) throw notFound();
    return m;
  }

  /** Merchants in the order of `ids`, null where there is none or it is outside the scope (a DataLoader batch). */
  async getMany(actor: Actor, ids: readonly string[]): Promise<(Merchant | null)[]> {
    const s = scope(actor);
    const valid = ids.filter(isUuid).map((id) => id.toLowerCase()).filter((id) => covers(s, id));
    const rows = valid.length ? await this.deps.db.selectFrom('merchants').selectAll().where('id', 'in', valid).execute() : [];
    const byId = new Map(rows.map((r) => [r.id, toMerchant(r)]));
    return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /** Every merchant, oldest first (operator). */
  async list(actor: Actor): Promise<Merchant[]> {
    requireOperator(actor);
    const rows = await this.deps.db.selectFrom('merchants').selectAll().orderBy('created_at').execute();
    return rows.map(toMerchant);
  }

  /** CONTRACT §6: in `prd` webhook URLs must be https and not point inside (names are checked again at delivery). */
  private checkWebhookUrl(url: string | null | undefined) {
    if (!url || this.deps.config.serviceEnv !== 'prd') return;
    const problem = webhookUrlProblem(url, true);
    if (problem) throw fieldError('VALIDATION_FAILED', ['webhookUrl'], problem);
  }
}
