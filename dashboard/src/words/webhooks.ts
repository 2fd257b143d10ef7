/** The Webhooks screen's words (screens/webhooks.tsx): the URL, the signing secrets and the delivery log. */

const en = {
  'webhooks.url': 'Where events are sent',
  'webhooks.save': 'Save URL',
  'webhooks.saved': 'Saved.',
  'webhooks.secrets': 'Signing secrets',
  'webhooks.noSecret': 'No secret yet: deliveries go out unsigned.',
  'webhooks.signsUntil': ', signs until {when}',
  'webhooks.rotate': 'Rotate secret',
  'webhooks.create': 'Create secret',
  'webhooks.newSecret': 'The new signing secret.',
  'webhooks.deliveries': 'Deliveries',
  'webhooks.deliveriesPages': 'deliveries',
  'webhooks.col.event': 'Event',
  'webhooks.col.attempts': 'Attempts',
  'webhooks.col.answer': 'Last answer',
  'webhooks.col.queued': 'Queued',
  'webhooks.col.action': 'Action',
  'webhooks.none': 'Nothing delivered yet.',
  'webhooks.redeliver': 'Redeliver',
};
type Key = keyof typeof en;

const af: Record<Key, string> = {
  'webhooks.url': 'Waarheen gebeurtenisse gestuur word',
  'webhooks.save': 'Stoor die URL',
  'webhooks.saved': 'Gestoor.',
  'webhooks.secrets': 'Ondertekengeheime',
  'webhooks.noSecret': 'Nog geen geheim nie: aflewerings gaan ononderteken uit.',
  'webhooks.signsUntil': ', onderteken tot {when}',
  'webhooks.rotate': 'Vervang die geheim',
  'webhooks.create': "Skep 'n geheim",
  'webhooks.newSecret': 'Die nuwe ondertekengeheim.',
  'webhooks.deliveries': 'Aflewerings',
  'webhooks.deliveriesPages': 'aflewerings',
  'webhooks.col.event': 'Gebeurtenis',
  'webhooks.col.attempts': 'Pogings',
  'webhooks.col.answer': 'Laaste antwoord',
  'webhooks.col.queued': 'In die ry geplaas',
  'webhooks.col.action': 'Aksie',
  'webhooks.none': 'Nog niks afgelewer nie.',
  'webhooks.redeliver': 'Lewer weer af',
};

const zu: Record<Key, string> = {
  'webhooks.url': 'Lapho imicimbi ithunyelwa khona',
  'webhooks.save': 'Londoloza i-URL',
  'webhooks.saved': 'Kulondoloziwe.',
  'webhooks.secrets': 'Izimfihlo zokusayina',
  'webhooks.noSecret': 'Ayikho imfihlo okwamanje: okuthunyelwayo kuphuma kungasayiniwe.',
  'webhooks.signsUntil': ', isayina kuze kube ngu-{when}',
  'webhooks.rotate': 'Shintsha imfihlo',
  'webhooks.create': 'Dala imfihlo',
  'webhooks.newSecret': 'Imfihlo entsha yokusayina.',
  'webhooks.deliveries': 'Okuthunyelwe',
  'webhooks.deliveriesPages': 'okuthunyelwe',
  'webhooks.col.event': 'Umcimbi',
  'webhooks.col.attempts': 'Imizamo',
  'webhooks.col.answer': 'Impendulo yokugcina',
  'webhooks.col.queued': 'Kufakwe emugqeni',
  'webhooks.col.action': 'Isenzo',
  'webhooks.none': 'Akukho okuthunyelwe okwamanje.',
  'webhooks.redeliver': 'Thumela futhi',
};

export const webhooksWords = { en, af, zu };
