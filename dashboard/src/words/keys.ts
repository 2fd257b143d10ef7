/** The API keys screen's words (screens/keys.tsx): issue, regenerate and revoke. */

const en = {
  'keys.issue': 'Issue a new key',
  'keys.newSecret': 'The new secret key.',
  'keys.col.key': 'Key',
  'keys.col.issued': 'Issued',
  'keys.col.actions': 'Actions',
  'keys.none': 'No keys.',
  'keys.regenerate': 'Regenerate',
  'keys.revoke': 'Revoke',
  'keys.revokeConfirm': 'Revoke {key}? Requests with it will be refused.',
};
type Key = keyof typeof en;

const af: Record<Key, string> = {
  'keys.issue': "Reik 'n nuwe sleutel uit",
  'keys.newSecret': 'Die nuwe geheime sleutel.',
  'keys.col.key': 'Sleutel',
  'keys.col.issued': 'Uitgereik',
  'keys.col.actions': 'Aksies',
  'keys.none': 'Geen sleutels nie.',
  'keys.regenerate': "Maak 'n nuwe een",
  'keys.revoke': 'Herroep',
  'keys.revokeConfirm': 'Herroep {key}? Versoeke daarmee sal geweier word.',
};

const zu: Record<Key, string> = {
  'keys.issue': 'Khipha ukhiye omusha',
  'keys.newSecret': 'Ukhiye omusha oyimfihlo.',
  'keys.col.key': 'Ukhiye',
  'keys.col.issued': 'Ukhishwe',
  'keys.col.actions': 'Izenzo',
  'keys.none': 'Abekho okhiye.',
  'keys.regenerate': 'Yenza omusha',
  'keys.revoke': 'Hoxisa',
  'keys.revokeConfirm': 'Uhoxise u-{key}? Izicelo ezinawo zizonqatshwa.',
};

export const keysWords = { en, af, zu };
