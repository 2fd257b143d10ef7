/** The Statements screen's words (screens/statements.tsx): the days asked for, the downloads and the entries. */

const en = {
  'statements.from': 'From (first day)',
  'statements.to': 'To (last day)',
  'statements.show': 'Show',
  'statements.csv': 'Download CSV',
  'statements.accounting': 'Download for accounting',
  'statements.summary': 'Opening balance {opening}, closing balance {closing}, {count} entries.',
  'statements.col.posted': 'Posted',
  'statements.col.type': 'Type',
  'statements.col.balance': 'Balance',
  'statements.none': 'Nothing moved in these days.',
};
type Key = keyof typeof en;

const af: Record<Key, string> = {
  'statements.from': 'Van (eerste dag)',
  'statements.to': 'Tot (laaste dag)',
  'statements.show': 'Wys',
  'statements.csv': 'Laai CSV af',
  'statements.accounting': 'Laai af vir die boekhouding',
  'statements.summary': 'Openingsaldo {opening}, sluitingsaldo {closing}, {count} inskrywings.',
  'statements.col.posted': 'Geboek',
  'statements.col.type': 'Soort',
  'statements.col.balance': 'Saldo',
  'statements.none': 'Niks het in hierdie dae beweeg nie.',
};

const zu: Record<Key, string> = {
  'statements.from': 'Kusukela (usuku lokuqala)',
  'statements.to': 'Kuze kube (usuku lokugcina)',
  'statements.show': 'Bonisa',
  'statements.csv': 'Landa i-CSV',
  'statements.accounting': 'Landa okomgcinimabhuku',
  'statements.summary': 'Ibhalansi yokuqala {opening}, ibhalansi yokugcina {closing}, okufakiwe okungu-{count}.',
  'statements.col.posted': 'Kufakwe',
  'statements.col.type': 'Uhlobo',
  'statements.col.balance': 'Ibhalansi',
  'statements.none': 'Akukho okunyakazile kulezi zinsuku.',
};

export const statementsWords = { en, af, zu };
