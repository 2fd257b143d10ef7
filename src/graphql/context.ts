import DataLoader from 'dataloader';
import type { Merchant, Payout } from '../domain/payout.ts';
import type { Principal } from '../services/keys.ts';
import type { Services } from '../services/index.ts';

/** Loaders live for one request: they never cache across requests or merchants. */
export function createLoaders(services: Services, principal: Principal | undefined) {
  const merchantScope = principal?.merchant.id;
  return {
    merchant: new DataLoader<string, Merchant | null>((ids) => services.merchants.getMany(ids)),
    // A merchant's loader only ever sees that merchant's payouts.
    payout: new DataLoader<string, Payout | null>((ids) => services.payouts.getMany(ids, merchantScope)),
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
