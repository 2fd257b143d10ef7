/** The People screen's words (screens/people.tsx): invites, roles, removal and who did what. */

const en = {
  'people.inviteEmail': 'Invite by e-mail address',
  'people.role': 'Role',
  'people.viewerMay': 'viewer: reads everything',
  'people.developerMay': 'developer: also keys and webhooks',
  'people.ownerMay': 'owner: everything',
  'people.invite': 'Invite',
  'people.inviteLink': 'The invite link (valid 72 hours, once).',
  'people.invited': '(invited)',
  'people.issuedOne': 'issued 1 active API key',
  'people.issuedMany': 'issued {count} active API keys',
  'people.roleOf': 'Role of {email}',
  'people.remove': 'Remove',
  'people.removeConfirm': 'Remove {email}? They are signed out at once.',
  'people.removeKey': 'The API key they issued stops working too: {keys}.',
  'people.removeKeys': 'The {count} API keys they issued stop working too: {keys}.',
  'people.audit': 'Who did what',
  'people.auditPages': 'who did what',
  'people.auditNone': 'Nothing yet.',
};
type Key = keyof typeof en;

const af: Record<Key, string> = {
  'people.inviteEmail': 'Nooi per e-posadres',
  'people.role': 'Rol',
  'people.viewerMay': 'kyker: lees alles',
  'people.developerMay': 'ontwikkelaar: ook sleutels en webhooks',
  'people.ownerMay': 'eienaar: alles',
  'people.invite': 'Nooi',
  'people.inviteLink': 'Die uitnodigingskakel (geldig vir 72 uur, een keer).',
  'people.invited': '(genooi)',
  'people.issuedOne': 'het 1 aktiewe API-sleutel uitgereik',
  'people.issuedMany': 'het {count} aktiewe API-sleutels uitgereik',
  'people.roleOf': 'Rol van {email}',
  'people.remove': 'Verwyder',
  'people.removeConfirm': 'Verwyder {email}? Hulle word dadelik afgemeld.',
  'people.removeKey': 'Die API-sleutel wat hulle uitgereik het, werk ook nie meer nie: {keys}.',
  'people.removeKeys': 'Die {count} API-sleutels wat hulle uitgereik het, werk ook nie meer nie: {keys}.',
  'people.audit': 'Wie het wat gedoen',
  'people.auditPages': 'wie het wat gedoen',
  'people.auditNone': 'Nog niks nie.',
};

const zu: Record<Key, string> = {
  'people.inviteEmail': 'Mema ngekheli le-imeyili',
  'people.role': 'Indima',
  'people.viewerMay': 'umbukeli: ufunda konke',
  'people.developerMay': 'umthuthukisi: futhi okhiye nama-webhook',
  'people.ownerMay': 'umnikazi: konke',
  'people.invite': 'Mema',
  'people.inviteLink': 'Isixhumanisi sesimemo (sisebenza amahora angu-72, kanye).',
  'people.invited': '(umenyiwe)',
  'people.issuedOne': 'ukhiphe ukhiye we-API owodwa osebenzayo',
  'people.issuedMany': 'ukhiphe okhiye be-API abangu-{count} abasebenzayo',
  'people.roleOf': 'Indima ka-{email}',
  'people.remove': 'Susa',
  'people.removeConfirm': 'Ususa u-{email}? Uzophuma ngokushesha.',
  'people.removeKey': 'Ukhiye we-API awukhiphile nawo uyayeka ukusebenza: {keys}.',
  'people.removeKeys': 'Okhiye be-API abangu-{count} abakhiphile nabo bayayeka ukusebenza: {keys}.',
  'people.audit': 'Ubani wenzeni',
  'people.auditPages': 'ubani wenzeni',
  'people.auditNone': 'Akukho okwamanje.',
};

export const peopleWords = { en, af, zu };
