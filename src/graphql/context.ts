import DataLoader from 'dataloader';
import type { ApiKeyRecord, Balance, Merchant, Payout } from '../domain/payout.ts';
import type { EventRecord } from '../services/events-query.ts';
import type { Principal } from '../services/keys.ts';
import type { Services } from '../services/index.ts';

/**
 * Loaders live for one request: they never cache across requests or merchants. Each batch is one
 * statement, so a page of payouts costs the same number of statements whatever its size.
 */
export function createLoaders(services: Services, principal: Principal | undefined) {
  const merchantScope = principal?.merchant.id;
  return {
    merchant: new DataLoader<string, Merchant | null>((ids) => services.merchants.getMany(ids)),
    balance: new DataLoader<string, Balance | null>((merchantIds) => services.balances.getMany(merchantIds)),
    apiKeys: new DataLoader<string, ApiKeyRecord[]>((merchantIds) => services.keys.listMany(merchantIds)),
    // A merchant's loaders only ever see that merchant's payouts and events.
    payout: new DataLoader<string, Payout | null>((ids) => services.payouts.getMany(ids, merchantScope)),
    payoutEvents: new DataLoader<string, EventRecord[]>((payoutIds) => services.eventHistory.forPayouts(payoutIds, merchantScope)),
  };
}

export interface GraphQLContext {
  services: Services;
  /** The merchant whose `X-API-Key` authenticated this request, if any. */
  principal?: Principal;
  /** True when `Authorization: Bearer <OPERATOR_TOKEN>` was presented. */
  operator: boolean;
  loaders: ReturnType<typeof createLoaders>;
}
