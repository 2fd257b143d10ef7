import { PAYOUT_STATUSES } from '../../domain/payout-state.ts';
import { builder } from '../builder.ts';

const upper = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((v) => [v.toUpperCase(), { value: v }])) as Record<Uppercase<T>, { value: T }>;

export const PayoutStatusEnum = builder.enumType('PayoutStatus', { values: upper(PAYOUT_STATUSES) });
export const PayoutMethodEnum = builder.enumType('PayoutMethod', { values: upper(['eft'] as const) });
export const ApiKeyStatusEnum = builder.enumType('ApiKeyStatus', { values: upper(['active', 'revoked', 'expired'] as const) });
