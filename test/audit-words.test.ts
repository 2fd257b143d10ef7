import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_WORDS, auditSentence } from '../src/domain/audit-words.ts';
import { MUTATION_ACCESS } from '../src/graphql/roles.ts';

/** The audit log in words (src/domain/audit-words.ts): every action zarpay records has its sentence. */

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const root = new URL('..', import.meta.url).pathname;

describe('the audit log in words', () => {
  it('has words for every action recorded anywhere in src/, every payout move and payment outcome, and every mutation a person can make', () => {
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
    const missing = [...actions].filter((a) => !(a in AUDIT_WORDS) && !a.startsWith('person.email'));
    expect(missing).toEqual([]);
    expect(actions.size).toBeGreaterThan(40);
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
