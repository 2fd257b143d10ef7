import { BalanceService } from './balances.ts';
import type { ServiceDeps } from './deps.ts';
import { KeyService } from './keys.ts';
import { MerchantService } from './merchants.ts';
import { PayoutService } from './payouts.ts';
import { RateLimitService } from './rate-limits.ts';

/** Every use case of zarpay, built once per process over one database. */
export interface Services {
  keys: KeyService;
  merchants: MerchantService;
  balances: BalanceService;
  payouts: PayoutService;
  rateLimits: RateLimitService;
}

export function createServices(deps: ServiceDeps): Services {
  const keys = new KeyService(deps);
  return {
    keys,
    merchants: new MerchantService(deps, keys),
    balances: new BalanceService(deps),
    payouts: new PayoutService(deps),
    rateLimits: new RateLimitService(deps),
  };
}
