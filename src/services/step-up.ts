import { recordAudit } from '../db/audit.ts';
import { personForSignIn, recentFailures, recordFailure } from '../db/people.ts';
import { actorLabel, type MerchantActor } from '../domain/actor.ts';
import { AppError, fieldError } from '../domain/errors.ts';
import { SIGN_IN_ACCOUNT_FAILURES, SIGN_IN_FAILURES, SIGN_IN_WINDOW_MS, verifyPassword } from '../domain/people.ts';
import type { StepUpInput } from '../domain/payee.ts';
import { type PeopleService, SignInThrottled } from './people.ts';
import type { ServiceDeps } from './deps.ts';

/**
 * A further proof, after the password, that the person is who the session says (a second
 * factor's code): true when it holds. Each check added here is asked after the password, in
 * order, on every step-up; the proof carries what the person typed.
 */
export type StepUpCheck = (person: { personId: string; merchantId: string }, proof: StepUpInput) => Promise<boolean>;

/**
 * Where a person's wrong passwords at a step-up are counted: beside those of sign-in (one
 * person's failures, `sign_in_failures`), under an address of their own, so a stolen session
 * cannot try passwords faster than the sign-in form allows, and ten wrong ones in 15 minutes,
 * step-ups and sign-ins together, lock the account as sign-in does.
 */
const STEP_UP_ADDRESS = 'step-up';

/**
 * Step-up: before something that moves money somewhere new (a saved payee), the person signed in
 * proves once more that it is them at the keyboard, by re-entering their password; a session
 * alone, left open on a shared computer, does not reach that far. API keys never step up: what
 * needs a step-up is a person's (access.ts marks it session-only).
 *
 * A second factor joins in one place: a `StepUpCheck` given to the constructor (runtime.ts).
 */
export class StepUp {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly checks: readonly StepUpCheck[] = [],
  ) {}

  /**
   * Resolves when `proof` holds for the person behind `actor`'s session; otherwise FORBIDDEN on
   * the `password` field (nothing else is said), 429 after five wrong ones in 15 minutes. A
   * wrong password is counted and audited. `at` is where the proof sits in the caller's input
   * (a payout's `stepUp`): the refusal names its fields there (`stepUp.password`).
   */
  async verify(actor: MerchantActor, proof: StepUpInput, action: string, at: readonly string[] = []): Promise<void> {
    try {
      await this.check(actor, proof, action);
    } catch (e) {
      throw at.length > 0 && e instanceof AppError && e.fields ? fieldError(e.code, [...at, ...e.fields[0]!.path], e.fields[0]!.message) : e;
    }
  }

  private async check(actor: MerchantActor, proof: StepUpInput, action: string): Promise<void> {
    const person = actor.person;
    if (!person) throw new AppError('FORBIDDEN', 'an API key may not do this: it needs an owner signed in to the dashboard');
    const stored = await personForSignIn(this.deps.db, person.email);
    const failures = await recentFailures(this.deps.db, person.personId, STEP_UP_ADDRESS, SIGN_IN_WINDOW_MS);
    if (failures.fromAddress >= SIGN_IN_FAILURES) {
      const retryAfter = Math.max(1, Math.ceil(((failures.oldestFromAddress?.getTime() ?? Date.now()) + SIGN_IN_WINDOW_MS - Date.now()) / 1000));
      throw new SignInThrottled(retryAfter);
    }
    // The same scrypt check as sign-in; a person whose record is gone or locked is refused alike.
    const samePerson = stored !== undefined && stored.id === person.personId && stored.merchantId === actor.merchant.id;
    let ok = await verifyPassword(proof.password, samePerson ? stored.passwordHash : null);
    for (const check of this.checks) {
      if (!ok) break;
      ok = await check({ personId: person.personId, merchantId: actor.merchant.id }, proof);
    }
    // Locked (ten wrong passwords, sign-ins and step-ups together): refused as a wrong one, and not counted, as sign-in does.
    const locked = failures.all >= SIGN_IN_ACCOUNT_FAILURES;
    if (ok && !locked) return;
    if (locked) throw wrongPassword();
    await this.deps.db.transaction().execute(async (tx) => {
      await recordFailure(tx, person.personId, STEP_UP_ADDRESS, SIGN_IN_WINDOW_MS);
      await recordAudit(tx, { actor: actorLabel(actor), action: 'person.step_up_failed', merchantId: actor.merchant.id, detail: { person_id: person.personId, for: action } });
    });
    throw wrongPassword();
  }
}

const wrongPassword = () => fieldError('FORBIDDEN', ['password'], 'is not your password: enter the password you sign in with');

/**
 * The second factor at a step-up: passes a person without one; for a person with one, their
 * authenticator's code or a recovery code must be given and right (FORBIDDEN on `code`
 * otherwise). A wrong code counts toward the account's lock, as at sign-in (PeopleService).
 */
export function secondFactorCheck(people: Pick<PeopleService, 'verifySecondFactor' | 'hasSecondFactor'>): StepUpCheck {
  return async (person, proof) => {
    if (!(await people.hasSecondFactor(person.personId))) return true;
    if (!proof.code) throw fieldError('FORBIDDEN', ['code'], 'is required: you have a second factor, so enter the code your authenticator app shows now');
    try {
      await people.verifySecondFactor(person.personId, proof.code, STEP_UP_ADDRESS);
      return true;
    } catch (e) {
      if (e instanceof AppError && e.code === 'UNAUTHORIZED') throw fieldError('FORBIDDEN', ['code'], 'is not right: type the 6 digits your authenticator app shows now, or one of your recovery codes');
      throw e;
    }
  };
}
