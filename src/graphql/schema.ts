import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.ts';
import { guardMutations } from './roles.ts';
import './scalars.ts';
import './types/enums.ts';
import './types/api-key.ts';
import './types/balance.ts';
import './types/merchant.ts';
import './types/payout.ts';
import './types/stats.ts';
import './types/payment.ts';
import './types/payment-link.ts';
import './types/payment-request.ts';
import './types/customer-messages.ts';
import './types/refund.ts';
import './types/events.ts';
import './types/webhooks.ts';
import './types/bank-account.ts';
import './types/audit.ts';
import './types/jobs.ts';
import './types/payout-batch.ts';
import './types/statement.ts';
import './types/people.ts';
import './types/payee.ts';

/** The whole GraphQL schema, sorted so that its printed form is stable; every mutation checks the dashboard's roles (roles.ts). */
export const schema = guardMutations(lexicographicSortSchema(builder.toSchema()));
