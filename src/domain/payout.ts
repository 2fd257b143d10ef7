import type { PayoutStatus } from './payout-state.ts';

/** A payout as services return it; adapters shape it for REST (snake_case) or GraphQL. */
export interface Payout {
  id: string;
  merchantId: string;
  amountCents: number;
  feeCents: number;
  grossAmountCents: number;
  currency: string;
  status: PayoutStatus;
  payoutMethod: 'eft';
  merchantReference: string | null;
  description: string | null;
  metadata: Record<string, unknown> | null;
  externalTransferId: string | null;
  failureReason: string | null;
  rejectionReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export interface Balance {
  merchantId: string;
  balanceCents: number;
  reservedCents: number;
  availableCents: number;
  totals: { grossCents: number; feesCents: number; withdrawalsCents: number };
  currency: string;
}

export interface Merchant {
  id: string;
  name: string;
  webhookUrl: string | null;
  paymentFeeBps: number;
  paymentFeeFixedCents: number;
  payoutFeeCents: number;
  autoTopup: boolean;
  redirectDomains: string[];
  createdAt: Date;
  updatedAt: Date;
}

export type ApiKeyStatus = 'active' | 'revoked' | 'expired';

export interface ApiKeyRecord {
  id: string;
  merchantId: string;
  kid: string;
  env: string;
  type: string;
  status: ApiKeyStatus;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  displayMask: string;
}
