import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditFacts, AUDIT_WORDS_IN, auditSentence } from '../src/domain/audit-words.ts';
import { MUTATION_ACCESS } from '../src/graphql/roles.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';

/**
 * The audit log in words (src/domain/audit-words.ts): every action zarpay records has its
 * sentence in English, Afrikaans and isiZulu, and each reader reads the log in their own language.
 */

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const root = new URL('..', import.meta.url).pathname;

/** Every action zarpay records, found in src/: its audit() calls, its payout moves and payment outcomes, every mutation a person can make. */
function recordedActions(): Set<string> {
  const actions = new Set<string>();
  for (const f of files(join(root, 'src'))) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/action: '([a-z_]+\.[a-z_]+)'/g)) actions.add(m[1]!);
    for (const m of text.matchAll(/\baudit\('([a-z_]+\.[a-z_]+)'/g)) actions.add(m[1]!);
    for (const m of text.matchAll(/export const [A-Z_]+ = '([a-z_]+\.[a-z_]+)';/g)) if (/audit|MISMATCH/i.test(text)) actions.add(m[1]!);
  }
  // Built from parts: `payout.${action}` (PayoutAction) and `payment.${outcome}` (Settled but 'unchanged').
  const payoutActions = /export type PayoutAction = ([^;]+);/.exec(readFileSync(join(root, 'src/domain/payout.ts'), 'utf8'))![1]!.match(/'([a-z_]+)'/g)!;
  for (const a of payoutActions) actions.add(`payout.${a.replaceAll("'", '')}`);
  for (const o of ['captured', 'failed', 'reopened', 'refund_owed']) actions.add(`payment.${o}`);
  for (const [mutation, access] of Object.entries(MUTATION_ACCESS)) if (access !== 'operator') actions.add(`dashboard.${mutation}`);
  return new Set([...actions].filter((a) => !a.startsWith('person.email')));
}

/** Facts that fill every blank a sentence has: an amount, a refund's, a reason, counts, a person. */
function factsFor(action: string): AuditFacts {
  return {
    action,
    actor: 'merchant:11111111-1111-1111-1111-111111111111/person:3f2504e0-4f89-11d3-9a0c-0305e82c3301',
    detail: { amount_cents: 1_500, reason: 'duplicate', return_reason: 'AC01', outcome: 'captured', payouts: 3, total_cents: 75_000, batch_id: '7d1e2f30-0000-4000-8000-000000000000', completed: 2, failed: 1, unmatched: 0, person_id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301', role: 'viewer', recovery_codes_left: 7, name: 'Cement', bank: 'FNB', account_number_masked: '••••6789', url: 'https://shop.example/hook', event_id: 'a1b2c3d4-0000-4000-8000-000000000000', invited: 'sipho@shop.example', required: true },
    paymentId: '5e6f7a80-0000-4000-8000-000000000000',
    payoutId: '9b2c7a10-0000-4000-8000-000000000000',
    amountCents: 25_000,
  };
}

describe('the audit log in words', () => {
  it('has words for every action recorded anywhere in src/, every payout move and payment outcome, and every mutation a person can make, in en, af and zu', () => {
    const actions = recordedActions();
    expect(actions.size).toBeGreaterThan(40);
    const missing = Object.fromEntries((['en', 'af', 'zu'] as const).map((l) => [l, [...actions].filter((a) => !(a in AUDIT_WORDS_IN[l]))]));
    expect(missing).toEqual({ en: [], af: [], zu: [] });
    // Each language says each thing in its own words, with the same facts (the ids, the amounts).
    const names = new Map([['3f2504e0-4f89-11d3-9a0c-0305e82c3301', 'thandi@shop.example']]);
    const same: string[] = [];
    for (const action of actions) {
      const english = auditSentence(factsFor(action), names, 'en');
      for (const language of ['af', 'zu'] as const) {
        const theirs = auditSentence(factsFor(action), names, language);
        if (theirs === english) same.push(`${language} ${action}`);
        for (const fact of english.match(/\b[0-9a-f]{8}\b|R [\d ]+\.\d\d|\b\d+\b/g) ?? []) if (!theirs.includes(fact)) same.push(`${language} ${action} lacks ${fact}`);
      }
    }
    expect(same).toEqual([]);
  });

  it('names the person, the payout or payment and its amount', () => {
    const names = new Map([['3f2504e0-4f89-11d3-9a0c-0305e82c3301', 'thandi@shop.example']]);
    const person = 'merchant:11111111-1111-1111-1111-111111111111/person:3f2504e0-4f89-11d3-9a0c-0305e82c3301';
    const payoutId = '9b2c7a10-0000-4000-8000-000000000000';
    expect(auditSentence({ action: 'dashboard.createPayout', actor: person, detail: {}, paymentId: null, payoutId, amountCents: 25_000 }, names)).toBe('thandi@shop.example created payout 9b2c7a10 of R 250.00');
    expect(auditSentence({ action: 'payout.approve', actor: 'operator:sipho', detail: {}, paymentId: null, payoutId, amountCents: 25_000 })).toBe('The operator (sipho) approved payout 9b2c7a10 of R 250.00');
    expect(auditSentence({ action: 'dashboard.updateWebhookUrl', actor: person, detail: { url: 'https://shop.example/hook' }, paymentId: null, payoutId: null, amountCents: null }, names)).toBe(
      'thandi@shop.example changed the webhook URL to https://shop.example/hook',
    );
    expect(auditSentence({ action: 'dashboard.refundPayment', actor: person, detail: { amount_cents: 1_500 }, paymentId: payoutId, payoutId: null, amountCents: 9_900 }, names)).toBe('thandi@shop.example refunded R 15.00 of payment 9b2c7a10');
    expect(auditSentence({ action: 'person.remove', actor: person, detail: { person_id: 'gone' }, paymentId: null, payoutId: null, amountCents: null }, names)).toBe('thandi@shop.example removed a removed person');
  });
});

/** The GraphQL auditLog's sentences are in the reader's language (CONTRACT §11 `language`). */
describe('the audit log read in its reader\'s language', () => {
  let t: TestApp;
  let m: TestMerchant;
  beforeAll(async () => {
    t = await startApp();
    m = await createMerchant(t, { name: 'Umlazi Hardware' });
    await credit(t, m.id, 1_000_000);
  });
  afterAll(() => t?.close());

  it('a person whose language is isiZulu reads isiZulu, one whose language is Afrikaans Afrikaans, an API key and the operator English', async () => {
    const invite = async (email: string) => {
      const d = await op(t, 'mutation($m: UUID, $e: String!) { invitePerson(merchantId: $m, email: $e, role: OWNER) { inviteUrl } }', { m: m.id, e: email });
      const res = await http(t, 'POST', '/dashboard/invite', { body: { token: new URL(d.invitePerson.inviteUrl).hash.slice(1), password: 'correct horse battery' } });
      expect(res.status).toBe(200);
      const cookies = res.headers.getSetCookie();
      const value = (name: string) => cookies.find((c) => c.startsWith(`${name}=`))!.split(';')[0]!.slice(name.length + 1);
      return { headers: { cookie: `zarpay_session=${value('zarpay_session')}`, 'x-csrf-token': value('zarpay_csrf') } };
    };
    const zulu = await invite('zanele@umlazi.example');
    const afrikaans = await invite('anika@umlazi.example');
    for (const [who, language] of [[zulu, 'ZU'], [afrikaans, 'AF']] as const) {
      const set = await gql(t, `mutation { setLanguage(language: ${language}) { language } }`, {}, who);
      expect(set.body.errors).toBeUndefined();
    }
    // A payout the API key asked for and the operator approved.
    const made = await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(25_000) });
    expect(made.status, JSON.stringify(made.body)).toBeLessThan(300);
    const payoutId = String(made.body.data.id);
    await op(t, 'mutation($id: UUID!) { approvePayout(id: $id) { payout { id } } }', { id: payoutId });
    const query = `query($p: UUID) { auditLog(payoutId: $p) { action summary } }`;
    const read = async (auth: Parameters<typeof gql>[3]) => {
      const res = await gql(t, query, { p: payoutId }, auth);
      expect(res.body.errors).toBeUndefined();
      return (res.body.data.auditLog as { action: string; summary: string }[]).map((e) => e.summary);
    };
    const short = payoutId.slice(0, 8);
    const key = await read({ key: m.key });
    expect(key.length).toBeGreaterThan(0);
    expect(key.every((s) => s.includes(short))).toBe(true);
    expect(key).toContain(`The operator approved payout ${short} of R 250.00`);
    expect(await read({ operator: true })).toEqual(key);
    const zu = await read(zulu);
    expect(zu).toHaveLength(key.length);
    expect(zu).toContain(`Umphathi ugunyaze inkokhelo ephumayo ${short} ka-R 250.00`);
    expect(zu.filter((s) => key.includes(s))).toEqual([]);
    const af = await read(afrikaans);
    expect(af).toContain(`Die operateur het uitbetaling ${short} van R 250.00 goedgekeur`);
    expect(af.filter((s) => key.includes(s) || zu.includes(s))).toEqual([]);
  });
});
