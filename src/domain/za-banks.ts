/**
 * South African banks and the branch codes an EFT payout may name (issue 25).
 *
 * Source: the universal (generic) branch codes each bank publishes for electronic payments on its
 * own site, as listed by the Payments Association of South Africa's clearing-bank members;
 * compiled 2026-11-25. A universal code routes a credit to any branch of its bank, and every
 * bank asks that EFT payments use it, so it is the one code per bank this list carries. Codes of
 * individual branches are not listed: a payout naming one is refused with the bank's universal
 * code in the message, which is always right for an EFT. Check the list against the banks'
 * published codes when a bank is added, merged or renamed (Mercantile became Capitec Business,
 * Grobank became Access Bank).
 *
 * `names` are the ways a merchant writes the bank in `bank_name` (lower case, words only): a
 * `bank_name` that contains another bank's name is shown to the operator as a mismatch.
 */
export interface ZaBank {
  /** Stable id, recorded on the payout (`payouts.bank`). */
  id: string;
  /** The bank's name as it goes into a bank file (creditor agent). */
  name: string;
  universalBranchCode: string;
  names: readonly string[];
}

export const ZA_BANKS: readonly ZaBank[] = [
  { id: 'absa', name: 'Absa Bank', universalBranchCode: '632005', names: ['absa', 'amalgamated banks of south africa'] },
  { id: 'access', name: 'Access Bank South Africa', universalBranchCode: '410506', names: ['access bank', 'grobank'] },
  { id: 'african_bank', name: 'African Bank', universalBranchCode: '430000', names: ['african bank'] },
  { id: 'albaraka', name: 'Albaraka Bank', universalBranchCode: '800000', names: ['albaraka', 'al baraka'] },
  { id: 'bank_zero', name: 'Bank Zero', universalBranchCode: '888000', names: ['bank zero'] },
  // Old Mutual Bank accounts are reached through Bidvest Bank's clearing code.
  { id: 'bidvest', name: 'Bidvest Bank', universalBranchCode: '462005', names: ['bidvest', 'old mutual'] },
  { id: 'capitec', name: 'Capitec Bank', universalBranchCode: '470010', names: ['capitec'] },
  { id: 'capitec_business', name: 'Capitec Business', universalBranchCode: '450105', names: ['capitec business', 'mercantile'] },
  { id: 'citibank', name: 'Citibank South Africa', universalBranchCode: '350005', names: ['citibank', 'citi bank'] },
  { id: 'discovery', name: 'Discovery Bank', universalBranchCode: '679000', names: ['discovery'] },
  { id: 'finbond', name: 'Finbond Mutual Bank', universalBranchCode: '589000', names: ['finbond'] },
  { id: 'fnb', name: 'First National Bank', universalBranchCode: '250655', names: ['fnb', 'first national', 'firstrand', 'first rand'] },
  { id: 'hbz', name: 'HBZ Bank', universalBranchCode: '570100', names: ['hbz', 'habib bank ag zurich'] },
  { id: 'ithala', name: 'Ithala', universalBranchCode: '757026', names: ['ithala'] },
  { id: 'investec', name: 'Investec Bank', universalBranchCode: '580105', names: ['investec'] },
  { id: 'nedbank', name: 'Nedbank', universalBranchCode: '198765', names: ['nedbank', 'ned bank', 'nedcor'] },
  { id: 'postbank', name: 'Postbank', universalBranchCode: '460005', names: ['postbank', 'post bank', 'sapo'] },
  { id: 'rmb_private', name: 'RMB Private Bank', universalBranchCode: '222026', names: ['rmb', 'rand merchant bank'] },
  { id: 'sasfin', name: 'Sasfin Bank', universalBranchCode: '683000', names: ['sasfin'] },
  { id: 'standard_bank', name: 'Standard Bank', universalBranchCode: '051001', names: ['standard bank', 'stanbic', 'sbsa'] },
  { id: 'standard_chartered', name: 'Standard Chartered Bank', universalBranchCode: '730020', names: ['standard chartered'] },
  { id: 'tymebank', name: 'TymeBank', universalBranchCode: '678910', names: ['tyme'] },
  { id: 'ubank', name: 'Ubank', universalBranchCode: '431010', names: ['ubank', 'u bank', 'teba'] },
];

const BY_CODE = new Map(ZA_BANKS.map((b) => [b.universalBranchCode, b]));
const BY_ID = new Map(ZA_BANKS.map((b) => [b.id, b]));

/** The bank a branch code belongs to, or undefined when the code is not on the list. */
export const bankForBranchCode = (code: string): ZaBank | undefined => BY_CODE.get(code);

export const bankById = (id: string): ZaBank | undefined => BY_ID.get(id);

const words = (text: string) => ` ${text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `;

/**
 * The banks a free-text bank name names, longest name first so that "Capitec Business" is
 * Capitec Business and not also Capitec, and "Standard Chartered" is not Standard Bank.
 */
export function banksNamedIn(bankName: string): ZaBank[] {
  let text = words(bankName);
  const found: ZaBank[] = [];
  const names = ZA_BANKS.flatMap((bank) => bank.names.map((name) => ({ bank, name: words(name) }))).sort((a, b) => b.name.length - a.name.length);
  for (const { bank, name } of names) {
    if (!text.includes(name)) continue;
    if (!found.includes(bank)) found.push(bank);
    text = text.replaceAll(name, ' ');
  }
  return found;
}

/**
 * True when the merchant's `bank_name` names a bank other than the one its branch code belongs
 * to (and not that one): the payout goes to the code's bank, which the operator should know.
 * A name that names no bank at all ("Cheque account") is no mismatch.
 */
export function bankNameMismatch(bankName: string, bankId: string | null): boolean {
  if (bankId === null) return false;
  const named = banksNamedIn(bankName);
  return named.length > 0 && !named.some((b) => b.id === bankId);
}

/** The message for an unknown code: the universal codes are what a merchant should use. */
export const UNKNOWN_BRANCH_CODE =
  'is not a known South African universal branch code (e.g. 632005 Absa, 470010 Capitec, 250655 FNB, 198765 Nedbank, 051001 Standard Bank)';
