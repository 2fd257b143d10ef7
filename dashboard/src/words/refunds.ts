/** The Refunds screen's words (screens/refunds.tsx): every refund of the merchant, by status. */

const en = {
  'refunds.count': '{count} refunds, newest first',
  'refunds.col.payment': 'Payment',
  'refunds.col.reason': 'Reason',
  'refunds.col.asked': 'Asked for',
  'refunds.none': 'No refunds yet.',
  'refunds.noneIn': 'No refunds that are {status}.',
};
type Key = keyof typeof en;

const af: Record<Key, string> = {
  'refunds.count': '{count} terugbetalings, nuutste eerste',
  'refunds.col.payment': 'Betaling',
  'refunds.col.reason': 'Rede',
  'refunds.col.asked': 'Gevra op',
  'refunds.none': 'Nog geen terugbetalings nie.',
  'refunds.noneIn': 'Geen terugbetalings wat {status} is nie.',
};

const zu: Record<Key, string> = {
  'refunds.count': 'Izimbuyiselo ezingu-{count}, ezintsha kuqala',
  'refunds.col.payment': 'Inkokhelo',
  'refunds.col.reason': 'Isizathu',
  'refunds.col.asked': 'Kucelwe',
  'refunds.none': 'Azikho izimbuyiselo okwamanje.',
  'refunds.noneIn': 'Azikho izimbuyiselo ezithi: {status}.',
};

export const refundsWords = { en, af, zu };
