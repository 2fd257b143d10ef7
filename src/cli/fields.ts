/** The GraphQL selections the CLI prints, in the REST shape. */
export const PAYOUT = `id merchantId amountCents feeCents grossAmountCents currency status payoutMethod
  merchantReference description metadata externalTransferId failureReason rejectionReason createdAt updatedAt completedAt returnedAt returnReason
  bankAccount { bankName branchCode accountHolder accountNumberMasked bank bankNameMismatch unreadable }`;
export const MERCHANT = `id name webhookUrl supportContact paymentFeeBps paymentFeeFixedCents payoutFeeCents autoTopup redirectDomains paymentLimits { minCents maxCents } createdAt updatedAt`;
export const API_KEY = `id kid env type status createdAt displayMask expiresAt revokedAt`;
export const BALANCE = `merchantId balanceCents reservedCents totals { grossCents feesCents withdrawalsCents refundsCents returnedCents } availableCents currency`;
