import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS, ACTIONS, authorize, lesserRole, may, refusal, roleCovers, roleOf } from '../src/domain/access.ts';
import { OPERATOR, type MerchantActor } from '../src/domain/actor.ts';
import type { Role } from '../src/domain/people.ts';

/** Rules of src/domain that the HTTP-level tests reach only through a server, tried directly. */

const merchant = { id: 'm', name: 'Shop', webhookUrl: null, paymentFeeBps: 0, paymentFeeFixedCents: 0, payoutFeeCents: 0, autoTopup: false, redirectDomains: [], supportContact: null, supportEmail: null, supportPhone: null, paymentMethods: null, paymentLimits: { minCents: 5500, maxCents: 300000 }, createdAt: new Date(), updatedAt: new Date() };
const withKey = (role: Role): MerchantActor => ({
  kind: 'merchant',
  merchant,
  key: { id: 'k', merchantId: 'm', kid: 'kid', env: 'tst', type: 'secret', status: 'active', createdAt: new Date(), expiresAt: null, revokedAt: null, displayMask: 'm', issuedBy: 'person', issuedByPersonId: 'p', role },
});
const signedIn = (role: Role): MerchantActor => ({ kind: 'merchant', merchant, person: { personId: 'p', email: 'p@example.co.za', role, sessionId: 's' } });
const ROLES: Role[] = ['owner', 'developer', 'viewer'];

describe('access: the role ladder', () => {
  it('orders owner above developer above viewer', () => {
    expect(ROLES.flatMap((a) => ROLES.map((b) => `${a}≥${b}:${roleCovers(a, b)}`))).toEqual([
      'owner≥owner:true', 'owner≥developer:true', 'owner≥viewer:true',
      'developer≥owner:false', 'developer≥developer:true', 'developer≥viewer:true',
      'viewer≥owner:false', 'viewer≥developer:false', 'viewer≥viewer:true',
    ]);
    expect(ROLES.flatMap((a) => ROLES.map((b) => lesserRole(a, b)))).toEqual([
      'owner', 'developer', 'viewer', 'developer', 'developer', 'viewer', 'viewer', 'viewer', 'viewer',
    ]);
  });

  it('acts with the person\'s role in a session and the key\'s role with a key', () => {
    expect(roleOf(signedIn('viewer'))).toBe('viewer');
    expect(roleOf(withKey('developer'))).toBe('developer');
  });
});

/**
 * The table as the team decided it (CONTRACT, docs/access.md), written out rather than read from
 * ACCESS, so that a change to any row is a change this file must agree to.
 */
const EXPECTED: Record<string, { roles: Role[]; credentials: ('session' | 'key')[] }> = {
  read: { roles: ['owner', 'developer', 'viewer'], credentials: ['session', 'key'] },
  'audit.read': { roles: ['owner'], credentials: ['session', 'key'] },
  'payments.create': { roles: ['owner'], credentials: ['session', 'key'] },
  'payments.request': { roles: ['owner'], credentials: ['session', 'key'] },
  'refunds.create': { roles: ['owner'], credentials: ['session', 'key'] },
  'payouts.create': { roles: ['owner'], credentials: ['session', 'key'] },
  'keys.manage': { roles: ['owner', 'developer'], credentials: ['session', 'key'] },
  'webhooks.manage': { roles: ['owner', 'developer'], credentials: ['session', 'key'] },
  'settings.update': { roles: ['owner'], credentials: ['session', 'key'] },
  'people.manage': { roles: ['owner'], credentials: ['session'] },
  'profile.update': { roles: ['owner', 'developer', 'viewer'], credentials: ['session'] },
  'payees.manage': { roles: ['owner'], credentials: ['session'] },
};

describe('access: the table', () => {
  it('has exactly the decided rows, each said in words in docs/access.md', () => {
    expect([...ACTIONS].sort()).toEqual(Object.keys(EXPECTED).sort());
    const doc = readFileSync(new URL('../docs/access.md', import.meta.url), 'utf8');
    for (const action of ACTIONS) {
      expect(ACCESS[action].covers.length, action).toBeGreaterThan(10);
      expect(doc, action).toContain(ACCESS[action].covers);
    }
  });
});

describe('access: every row of the table, for each role and credential', () => {
  for (const action of ACTIONS) {
    for (const role of ROLES) {
      for (const [credential, actor] of [['session', signedIn(role)], ['key', withKey(role)]] as const) {
        const rule = EXPECTED[action] ?? { roles: [], credentials: [] };
        const allowed = rule.roles.includes(role) && rule.credentials.includes(credential);
        it(`${action}: a ${role} with a ${credential} ${allowed ? 'may' : 'may not'}`, () => {
          expect(may(actor, action)).toBe(allowed);
          expect(refusal(actor, action) === undefined).toBe(allowed);
          if (allowed) {
            expect(() => authorize(actor, action)).not.toThrow();
            return;
          }
          expect(() => authorize(actor, action)).toThrowError(expect.objectContaining({ code: 'FORBIDDEN' }));
          const why = refusal(actor, action)!;
          expect(why).toContain(action);
          if (!rule.credentials.includes(credential)) expect(why).toMatch(/^an API key may not do this .*owner signed in/);
          else if (credential === 'key') expect(why).toBe(`this API key carries the ${role} role, which may not do this (${action})`);
          else expect(why).toBe(`your role (${role}) may not do this (${action})`);
        });
      }
    }
  }

  it('leaves the operator and an anonymous caller to the use case', () => {
    expect(may(OPERATOR, 'people.manage')).toBe(true);
    expect(may(undefined, 'payouts.create')).toBe(true);
    expect(() => authorize(OPERATOR, 'payouts.create')).not.toThrow();
  });
});
