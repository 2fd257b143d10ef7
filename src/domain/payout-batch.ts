/**
 * Bank files for payouts, as services return them: a batch written as one pain.001 file, and
 * what became of each entry of a bank report read back.
 */

/** One exported file of approved payouts. */
export interface PayoutBatch {
  id: string;
  messageId: string;
  fileSha256: string;
  payoutCount: number;
  totalCents: number;
  createdBy: string;
  createdAt: Date;
}

/**
 * What an entry of a bank report did: `completed` or `failed` (its payout moved), `returned` (a
 * completed payout the bank gave back: its amount came back to the balance), `unchanged` (the
 * payout was already where the entry says), `unmatched` (nothing moved; `detail` says why).
 */
export type EntryOutcome = 'completed' | 'failed' | 'returned' | 'unchanged' | 'unmatched';

export interface EntryRecord {
  position: number;
  payoutId: string | null;
  outcome: EntryOutcome;
  reference: string | null;
  amountCents: number | null;
  currency: string | null;
  detail: string | null;
}
