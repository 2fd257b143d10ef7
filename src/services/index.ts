import { BalanceService } from './balances.ts';
import type { ServiceDeps } from './deps.ts';
import { EventHistoryService } from './events-query.ts';
import { KeyService } from './keys.ts';
import { MerchantService } from './merchants.ts';
import { PaymentService } from './payments.ts';
import { PayoutService } from './payouts.ts';
import { StatsService } from './stats.ts';
import { RateLimitService } from './rate-limits.ts';

/** Every use case of zarpay, built once per process over one database. */
export interface Services {
  keys: KeyService;
  merchants: MerchantService;
  balances: BalanceService;
  payouts: PayoutService;
  stats: StatsService;
  payments: PaymentService;
  rateLimits: RateLimitService;
  /** Reads of the event outbox (a payout's history); live events are another service. */
  eventHistory: EventHistoryService;
}

export function createServices(deps: ServiceDeps): Services {
  const keys = new KeyService(deps);
  return {
    keys,
    merchants: new MerchantService(deps, keys),
    balances: new BalanceService(deps),
    payouts: new PayoutService(deps),
    stats: new StatsService(deps),
    payments: new PaymentService(deps),
    rateLimits: new RateLimitService(deps),
    eventHistory: new EventHistoryService(deps),
  };
}
