/** The words of one payout's screen (screens/payout.tsx): its amounts, the bank account and its history. */

const en = {
  'payout.title': 'Payout',
  'payout.reference': 'Reference',
  'payout.gross': 'Reserved (gross)',
  'payout.bankAccount': 'Bank account',
  'payout.transferReference': "Bank's transfer reference",
  'payout.why': 'Why',
  'payout.history': 'History',
};
type Key = keyof typeof en;

const af: Record<Key, string> = {
  'payout.title': 'Uitbetaling',
  'payout.reference': 'Verwysing',
  'payout.gross': 'Gereserveer (bruto)',
  'payout.bankAccount': 'Bankrekening',
  'payout.transferReference': 'Die bank se oorplasingsverwysing',
  'payout.why': 'Waarom',
  'payout.history': 'Geskiedenis',
};

const zu: Record<Key, string> = {
  'payout.title': 'Inkokhelo ephumayo',
  'payout.reference': 'Inkomba',
  'payout.gross': 'Okugodliwe (isamba sonke)',
  'payout.bankAccount': 'I-akhawunti yasebhange',
  'payout.transferReference': 'Inkomba yebhange yokudlulisa imali',
  'payout.why': 'Isizathu',
  'payout.history': 'Umlando',
};

export const payoutWords = { en, af, zu };
