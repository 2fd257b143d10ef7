import { recordAudit } from '../db/audit.ts';
import { languageOf, revokeSessionsWithoutFactor, secondFactorRequired, setLanguage, setSecondFactorRequired } from '../db/person-security.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, actorLabel } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import type { PersonLanguage } from '../domain/people.ts';
import type { ServiceDeps } from './deps.ts';
import { mayManagePeople, wrongCode } from './people.ts';
import type { FactorUsed, SecondFactors, TotpSetup } from './second-factor.ts';

/** A signed-in person's own settings (CONTRACT §11): their language and second factor. */
export interface PersonProfile {
  language: PersonLanguage;
  secondFactor: boolean;
  recoveryCodesLeft: number;
  /** Whether their merchant demands a second factor of everyone. */
  secondFactorRequired: boolean;
}

/** What the profile needs of the people service: a code checked as at sign-in (and counted), and sessions ended. */
export interface SignInChecks {
  verifySecondFactor(personId: string, code: string): Promise<FactorUsed | 'none'>;
  endSessions(ids: readonly string[]): void;
}

/** The person behind a dashboard session; FORBIDDEN for any other caller (an API key has no person). */
function personOf(actor: Actor): { personId: string; email: string; merchantId: string; label: string } {
  if (actor.kind !== 'merchant' || !actor.person) throw new AppError('FORBIDDEN', 'only a person signed in to the dashboard can do this');
  authorize(actor, 'profile.update');
  return { personId: actor.person.personId, email: actor.person.email, merchantId: actor.merchant.id, label: actorLabel(actor) };
}

/**
 * A signed-in person's own settings (CONTRACT §11): their language, their TOTP second factor
 * (set up, confirmed with recovery codes shown once, removed with a code), and an owner's demand
 * of a second factor of everyone on the merchant.
 */
export class ProfileService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly factors: SecondFactors,
    private readonly signIn: SignInChecks,
  ) {}

  /** The signed-in person's own settings. */
  async profile(actor: Actor): Promise<PersonProfile> {
    if (actor.kind !== 'merchant' || !actor.person) throw new AppError('FORBIDDEN', 'only a person signed in to the dashboard has these');
    const id = actor.person.personId;
    return {
      language: await languageOf(this.deps.db, id),
      secondFactor: await this.factors.enabled(id),
      recoveryCodesLeft: await this.factors.recoveryCodesLeft(id),
      secondFactorRequired: await secondFactorRequired(this.deps.db, actor.merchant.id),
    };
  }

  /** Sets the signed-in person's language: kept with them, so it survives sign-out. */
  async setLanguage(actor: Actor, language: PersonLanguage): Promise<PersonProfile> {
    const me = personOf(actor);
    await setLanguage(this.deps.db, me.personId, language);
    return this.profile(actor);
  }

  /** Starts setting up the signed-in person's second factor: the secret to scan. */
  beginSecondFactor(actor: Actor): Promise<TotpSetup> {
    const me = personOf(actor);
    return this.factors.begin(me.personId, me.email);
  }

  /** Confirms it with a code from the app: the recovery codes, shown this once. */
  async confirmSecondFactor(actor: Actor, code: string): Promise<string[]> {
    const me = personOf(actor);
    const codes = await this.factors.confirm(me.personId, code, me.label, me.merchantId);
    if (!codes) throw wrongCode();
    return codes;
  }

  /** Removes the signed-in person's second factor, with a code of it; not while the merchant demands one. */
  async removeSecondFactor(actor: Actor, code: string): Promise<PersonProfile> {
    const me = personOf(actor);
    if (await secondFactorRequired(this.deps.db, me.merchantId)) throw new AppError('CONFLICT', 'your merchant demands a second factor of everyone: it cannot be removed');
    await this.signIn.verifySecondFactor(me.personId, code);
    await this.factors.remove(me.personId, me.label, me.merchantId);
    return this.profile(actor);
  }

  /**
   * An owner demands a second factor of everyone on the merchant (or stops): the owner needs one
   * first; everyone without one is signed out and sets one up after their password next time.
   */
  async requireSecondFactor(actor: Actor, required: boolean): Promise<PersonProfile> {
    mayManagePeople(actor);
    const me = personOf(actor);
    if (required && !(await this.factors.enabled(me.personId))) throw new AppError('CONFLICT', 'set up your own second factor first');
    const sessions = await this.deps.db.transaction().execute(async (tx) => {
      await setSecondFactorRequired(tx, me.merchantId, required);
      const sessions = required ? await revokeSessionsWithoutFactor(tx, me.merchantId) : [];
      await recordAudit(tx, { actor: me.label, action: 'merchant.second_factor_required', merchantId: me.merchantId, detail: { required, ended_sessions: sessions.length } });
      return sessions;
    });
    this.signIn.endSessions(sessions);
    return this.profile(actor);
  }
}
