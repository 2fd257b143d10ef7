import { openBalance } from '../db/ledger.ts';
import { findMerchants, insertMerchant, listMerchants, updateMerchant } from '../db/merchants.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, covers, requireMerchant, requireOperator, scope } from '../domain/actor.ts';
import type { ApiKeyRecord } from '../domain/api-key.ts';
import { AppError, fieldError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import type { CreateMerchantInput, Merchant, MerchantSettingsInput, UpdateMerchantInput } from '../domain/merchant.ts';
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
      const merchant = await insertMerchant(tx, {
        name: input.name,
        webhookUrl: input.webhookUrl,
        paymentFeeBps: input.paymentFeeBps ?? 0,
        paymentFeeFixedCents: input.paymentFeeFixedCents ?? 0,
        payoutFeeCents: input.payoutFeeCents ?? 0,
        autoTopup: input.autoTopup ?? false,
        redirectDomains: input.redirectDomains ?? [],
        supportContact: input.supportContact ?? null,
      });
      await openBalance(tx, merchant.id);
      const issued = await this.keys.issueIn(tx, merchant.id, { by: 'merchant', role: 'owner' });
      return { merchant, ...issued };
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
    authorize(actor, 'webhooks.manage');
    if (!isUuid(id) || !covers(scope(actor), id.toLowerCase())) throw notFound();
    this.checkWebhookUrl(input.webhookUrl);
    const merchant = await updateMerchant(this.deps.db, id.toLowerCase(), input);
    if (!merchant) throw notFound();
    this.keys.forgetMerchant(merchant.id);
    return merchant;
  }

  /** The merchant's own settings, read afresh (GET /api/v1/merchant). */
  async settings(actor: Actor): Promise<Merchant> {
    const { merchant } = requireMerchant(actor);
    const [m] = await findMerchants(this.deps.db, [merchant.id]);
    if (!m) throw notFound();
    return m;
  }

  /**
   * A merchant changes its own settings (PATCH /api/v1/merchant): webhook URL (the rule of
   * CONTRACT §6: https and no private address in prd), redirect allow-list, support e-mail and phone.
   */
  async updateSettings(actor: Actor, input: MerchantSettingsInput): Promise<Merchant> {
    const { merchant } = requireMerchant(actor);
    // The webhook URL is a developer's as well; the rest of the settings the owner's alone.
    const onlyWebhookUrl = Object.entries(input).every(([k, v]) => k === 'webhookUrl' || v === undefined);
    authorize(actor, onlyWebhookUrl ? 'webhooks.manage' : 'settings.update');
    this.checkWebhookUrl(input.webhookUrl);
    const changed = await updateMerchant(this.deps.db, merchant.id, {
      webhookUrl: input.webhookUrl,
      redirectDomains: input.allowedRedirectDomains,
      supportEmail: input.supportEmail,
      supportPhone: input.supportPhone,
      paymentMethods: input.paymentMethods,
    });
    if (!changed) throw notFound();
    // The key cache holds the merchant with its key: the next request sees the change.
    this.keys.forgetMerchant(changed.id);
    return changed;
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
    const byId = new Map((await findMerchants(this.deps.db, valid)).map((m) => [m.id, m]));
    return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /** Every merchant, oldest first (operator). */
  async list(actor: Actor): Promise<Merchant[]> {
    requireOperator(actor);
    return listMerchants(this.deps.db);
  }

  /** CONTRACT §6: in `prd` webhook URLs must be https and not point inside (names are checked again at delivery). */
  private checkWebhookUrl(url: string | null | undefined) {
    if (!url || this.deps.config.serviceEnv !== 'prd') return;
    const problem = webhookUrlProblem(url, true);
    if (problem) throw fieldError('VALIDATION_FAILED', ['webhookUrl'], problem);
  }
}
