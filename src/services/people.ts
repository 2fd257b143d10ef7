import { randomUUID } from 'node:crypto';
import { findMerchants, merchantExists } from '../db/merchants.ts';
import { recordAudit } from '../db/audit.ts';
import {
  inviteEmail,
  inviteState,
  type InviteState,
  merchantOfPerson,
  insertInvite,
  insertPerson,
  insertSession,
  ownerCount,
  peopleOf,
  personForSignIn,
  recentFailures,
  recordFailure,
  reinvitePending,
  removePerson,
  revokeSessionByToken,
  revokeSessionsOf,
  setPassword,
  setRole,
  signsInElsewhere,
  touchSession,
  useInvite,
} from '../db/people.ts';
import { revokeKeysIssuedBy, lowerKeysIssuedBy } from '../db/api-keys.ts';
import { enqueue } from '../db/jobs.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, actorLabel, type MerchantActor, oneMerchant, requireOperator } from '../domain/actor.ts';
import { QUEUE } from '../domain/jobs.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import {
  csrfMatches,
  csrfToken,
  hashPassword,
  INVITE_TTL_MS,
  newToken,
  type Person,
  type Role,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  SIGN_IN_ACCOUNT_FAILURES,
  SIGN_IN_FAILURES,
  SIGN_IN_WINDOW_MS,
  tokenDigest,
  verifyPassword,
} from '../domain/people.ts';
import type { MailTransport } from '../outside/mail.ts';
import { type ServiceDeps, withEvents } from './deps.ts';
import type { WatchCaller } from './key-watch.ts';
import { SessionWatch } from './session-watch.ts';
import type { KeyService } from './keys.ts';
import type { Notifications } from './notifications.ts';
import { secondFactorRequired } from '../db/person-security.ts';
import { type FactorUsed, SecondFactors, type TotpSetup } from './second-factor.ts';

/** A session as sign-in hands it out: the cookie's token (once), the CSRF token that goes with it. */
export interface NewSession {
  token: string;
  csrf: string;
  expiresAt: Date;
}

/** Too many wrong passwords for this person from this address (CONTRACT §10): 429, and when to try again. */
export class SignInThrottled extends AppError {
  constructor(readonly retryAfter: number) {
    super('RATE_LIMIT_EXCEEDED', `too many wrong passwords: try again in ${retryAfter} seconds`);
  }
}

const signInRefused = () => new AppError('UNAUTHORIZED', 'wrong e-mail address or password');

/** People are managed by an owner signed in to the dashboard, or by the operator (CONTRACT §11). */
export function mayManagePeople(actor: Actor): void {
  if (actor.kind === 'merchant') authorize(actor, 'people.manage');
  else requireOperator(actor);
}

/**
 * A person's e-mail about their own account (queue `person.email`): what happened, for them to
 * act on. A reset names its row, never a token: the task draws the token when it sends.
 */
export type PersonNotice = { person: string; notice: 'sign_in_locked' } | { person: string; notice: 'password_reset'; reset: string };

/**
 * What a right password leads to: a session (with the recovery codes of a second factor set up
 * just now, shown once), or the second step: the code of the person's second factor, or setting
 * one up because their merchant demands it.
 */
export type SignInOutcome =
  | { kind: 'session'; session: NewSession; recoveryCodes?: string[] }
  | { kind: 'second_factor' }
  | { kind: 'second_factor_setup'; setup: TotpSetup };

export const wrongCode = () => new AppError('UNAUTHORIZED', 'wrong code: type the 6 digits your authenticator app shows now, or one of your recovery codes');

/**
 * The merchant dashboard's people (CONTRACT §10): invites (by the operator, or an owner), the
 * password set from an invite link, sign-in with its throttle, server-side sessions and their
 * revocation, which reaches whatever a session holds open (its event streams).
 */
export class PeopleService {
  /** Open streams, by session: told when the session ends. */
  private readonly sessions: SessionWatch;
  private readonly factors: SecondFactors;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly mail: MailTransport | null,
    private readonly keys: KeyService,
    notifications: Notifications,
  ) {
    this.factors = new SecondFactors(deps);
    this.sessions = new SessionWatch(deps.db, notifications);
  }

  /** Invites a person to a merchant: the link (valid 72 hours, once) and when it expires; e-mailed when SMTP is set. */
  async invite(actor: Actor, merchantId: string | null | undefined, email: string, role: Role): Promise<{ inviteUrl: string; expiresAt: Date; person: Person; emailed: boolean }> {
    mayManagePeople(actor);
    const id = oneMerchant(actor, merchantId);
    if (!isUuid(id) || !(await merchantExists(this.deps.db, id))) throw new AppError('NOT_FOUND', 'merchant not found');
    const token = newToken();
    const { person, expiresAt } = await this.deps.db.transaction().execute(async (tx) => {
      if (await signsInElsewhere(tx, id, email)) throw new AppError('CONFLICT', 'email: this address already signs in for another merchant');
      const person = (await insertPerson(tx, { id: randomUUID(), merchantId: id, email, role })) ?? (await reinvitePending(tx, { merchantId: id, email, role }));
      if (!person) throw new AppError('CONFLICT', 'email: this person can sign in already: change their role instead');
      const expiresAt = await insertInvite(tx, { id: randomUUID(), personId: person.id, tokenHash: tokenDigest(token), ttlMs: INVITE_TTL_MS });
      await recordAudit(tx, { actor: actorLabel(actor), action: 'person.invite', merchantId: id, detail: { person_id: person.id, role } });
      return { person, expiresAt };
    });
    const inviteUrl = `${this.deps.config.publicBaseUrl}/dashboard/invite#${token}`;
    let emailed = false;
    if (this.mail && this.deps.config.smtp) {
      try {
        await this.mail.send({
          from: this.deps.config.smtp.from,
          to: email,
          subject: 'You are invited to the zarpay dashboard',
          text: `You have been invited to a merchant's zarpay dashboard as ${role}.\n\nSet your password here (valid for 72 hours, once):\n${inviteUrl}\n`,
          messageId: `<invite-${person.id}-${expiresAt.getTime()}@zarpay>`,
        });
        emailed = true;
      } catch {
        // The link is printed all the same; the operator can hand it over.
      }
    }
    return { inviteUrl, expiresAt, person, emailed };
  }

  /** Whether an invite link may still be used, and for whom. */
  async inviteFor(token: string): Promise<string | undefined> {
    return inviteEmail(this.deps.db, tokenDigest(token));
  }

  /**
   * What the invite page says before anything is typed: the merchant, the address and the role
   * of a link that still works; only that it was used or has expired otherwise (the link's holder
   * learns nothing more of a link that no longer works).
   */
  inviteState(token: string): Promise<InviteState> {
    return inviteState(this.deps.db, tokenDigest(token));
  }

  /** Uses an invite link: sets the password and signs the person in. The link works once. */
  async acceptInvite(token: string, password: string): Promise<SignInOutcome> {
    const passwordHash = await hashPassword(password);
    const personId = await this.deps.db.transaction().execute(async (tx) => {
      const personId = await useInvite(tx, tokenDigest(token));
      if (!personId) throw new AppError('FORBIDDEN', 'this invite link is not valid any more: ask for a new one');
      if (!(await setPassword(tx, personId, passwordHash))) throw new AppError('CONFLICT', 'this e-mail address already signs in for another merchant');
      return personId;
    });
    // A merchant that demands a second factor: set it up now (then sign in with the new password).
    const merchantId = await merchantOfPerson(this.deps.db, personId);
    if (merchantId && (await secondFactorRequired(this.deps.db, merchantId))) {
      const email = (await peopleOf(this.deps.db, merchantId)).find((p) => p.id === personId)?.email ?? '';
      return { kind: 'second_factor_setup', setup: await this.factors.begin(personId, email) };
    }
    return { kind: 'session', session: await this.startSession(personId) };
  }

  /**
   * Signs a person in. At most 5 wrong passwords per person and address in 15 minutes, then 429
   * RATE_LIMIT_EXCEEDED (with the seconds to wait), even for the right password. And at most 10
   * per person from all addresses together: then the account is locked until the oldest of them
   * is 15 minutes old, the right password refused exactly as a wrong one (nothing tells a locked
   * account from a wrong guess, or from an address that has no account), and the person is told
   * by e-mail, once per lock, when mail is set.
   */
  async signIn(email: string, password: string, address: string, code?: string): Promise<SignInOutcome> {
    const person = await personForSignIn(this.deps.db, email);
    const failures = person && (await recentFailures(this.deps.db, person.id, address, SIGN_IN_WINDOW_MS));
    if (failures && failures.fromAddress >= SIGN_IN_FAILURES) {
      const retryAfter = Math.max(1, Math.ceil(((failures.oldestFromAddress?.getTime() ?? Date.now()) + SIGN_IN_WINDOW_MS - Date.now()) / 1000));
      throw new SignInThrottled(retryAfter);
    }
    // Checked against a decoy hash when there is no such person, so the answer takes as long.
    const ok = await verifyPassword(password, person?.passwordHash ?? null);
    if (!person || !failures) throw signInRefused();
    // Locked: refused like a wrong password, and not counted (the lock lifts as its failures age).
    if (failures.all >= SIGN_IN_ACCOUNT_FAILURES) throw signInRefused();
    if (!ok) {
      await this.countFailure(person, address);
      throw signInRefused();
    }
    return this.secondStep(person, address, code);
  }

  /**
   * After the right password: the second factor's code when the person has one (a wrong one
   * counts toward the same lock as a wrong password); setting one up when their merchant demands
   * it and they have none; else the session.
   */
  private async secondStep(person: { id: string; email: string; merchantId: string }, address: string, code: string | undefined): Promise<SignInOutcome> {
    const label = `merchant:${person.merchantId}/person:${person.id}`;
    if (await this.factors.enabled(person.id)) {
      if (!code) return { kind: 'second_factor' };
      if (!(await this.factors.check(person.id, code, label, person.merchantId))) {
        await this.countFailure(person, address);
        throw wrongCode();
      }
      return { kind: 'session', session: await this.startSession(person.id) };
    }
    if (await secondFactorRequired(this.deps.db, person.merchantId)) {
      if (!code) return { kind: 'second_factor_setup', setup: await this.factors.begin(person.id, person.email) };
      const recoveryCodes = await this.factors.confirm(person.id, code, label, person.merchantId);
      if (!recoveryCodes) {
        await this.countFailure(person, address);
        throw wrongCode();
      }
      return { kind: 'session', session: await this.startSession(person.id), recoveryCodes };
    }
    return { kind: 'session', session: await this.startSession(person.id) };
  }

  /**
   * Records a wrong password or code; at the 10th within the window the account locks, the audit
   * log says so and the person is told by e-mail, once per lock, when mail is set.
   */
  private async countFailure(person: { id: string; merchantId: string }, address: string): Promise<void> {
    await withEvents(this.deps, async (tx) => {
      const all = await recordFailure(tx, person.id, address, SIGN_IN_WINDOW_MS);
      // Two wrong passwords at once may both reach the lock: one job (its key), told once.
      if (all < SIGN_IN_ACCOUNT_FAILURES) return;
      await recordAudit(tx, { actor: 'system:sign-in', action: 'person.sign_in_locked', merchantId: person.merchantId, detail: { person_id: person.id } });
      if (!this.mail) return;
      const notice: PersonNotice = { person: person.id, notice: 'sign_in_locked' };
      await enqueue(tx, { queue: QUEUE.personEmail, key: `sign_in_locked:${person.id}`, merchantId: person.merchantId, payload: notice });
    });
  }

  /** Whether the person has a second factor set up. */
  hasSecondFactor(personId: string): Promise<boolean> {
    return this.factors.enabled(personId.toLowerCase());
  }

  /**
   * Checks a signed-in person's second factor again, for a step-up before something that matters
   * (adding a payee, say): `totp` or `recovery_code` when the code is right (a recovery code is
   * then used up), `none` when the person has no second factor (the caller decides whether that
   * will do). A wrong code is UNAUTHORIZED and counts toward the person's sign-in lock, as at
   * sign-in (`address` names where it came from in that count); a locked account is refused
   * whatever the code.
   */
  async verifySecondFactor(personId: string, code: string, address = 'step-up'): Promise<FactorUsed | 'none'> {
    const merchantId = isUuid(personId) ? await merchantOfPerson(this.deps.db, personId.toLowerCase()) : undefined;
    if (!merchantId) throw new AppError('UNAUTHORIZED', 'no such person');
    const id = personId.toLowerCase();
    if (!(await this.factors.enabled(id))) return 'none';
    const failures = await recentFailures(this.deps.db, id, address, SIGN_IN_WINDOW_MS);
    if (failures.all >= SIGN_IN_ACCOUNT_FAILURES || failures.fromAddress >= SIGN_IN_FAILURES) throw wrongCode();
    const used = await this.factors.check(id, code, `merchant:${merchantId}/person:${id}`, merchantId);
    if (!used) {
      await this.countFailure({ id, merchantId }, address);
      throw wrongCode();
    }
    return used;
  }

  /**
   * Ends these sessions here and now: whatever they hold open (event streams) closes. Other
   * processes hear of it through the sessions' change notification.
   */
  endSessions(ids: readonly string[]): void {
    this.sessions.end(ids);
  }

  private async startSession(personId: string): Promise<NewSession> {
    const token = newToken();
    const expiresAt = await insertSession(this.deps.db, { id: randomUUID(), personId, tokenHash: tokenDigest(token), maxMs: SESSION_MAX_MS });
    return { token, csrf: csrfToken(this.deps.config.serviceSecret, token), expiresAt };
  }

  /** The CSRF token of a session cookie (the dashboard reads it from its own cookie). */
  csrfFor(token: string): string {
    return csrfToken(this.deps.config.serviceSecret, token);
  }

  /**
   * The caller of a session cookie: undefined without one; UNAUTHORIZED when it is not (any
   * more) valid; FORBIDDEN when the CSRF token does not go with it. Every use restarts the idle clock.
   */
  async authenticate(token: string, csrf: string | undefined): Promise<MerchantActor> {
    if (!csrfMatches(this.deps.config.serviceSecret, token, csrf)) throw new AppError('FORBIDDEN', 'CSRF check failed: send the X-CSRF-Token header of your session');
    const session = await touchSession(this.deps.db, tokenDigest(token), SESSION_IDLE_MS);
    if (!session) throw new AppError('UNAUTHORIZED', 'your session has ended: sign in again');
    const [merchant] = await findMerchants(this.deps.db, [session.merchantId]);
    if (!merchant) throw new AppError('UNAUTHORIZED', 'your session has ended: sign in again');
    return Object.freeze({
      kind: 'merchant' as const,
      merchant: Object.freeze(merchant),
      person: Object.freeze({ personId: session.personId, email: session.email, role: session.role, sessionId: session.sessionId }),
    });
  }

  /** Ends the session of this cookie (sign-out); what it holds open ends with it. */
  async signOut(token: string): Promise<void> {
    const id = await revokeSessionByToken(this.deps.db, tokenDigest(token));
    if (id) this.sessions.end([id]);
  }

  /** The merchant's people, oldest first (every role reads them): all, or a page. */
  async list(actor: Actor, merchantId?: string | null, page?: { limit: number | null; offset: number }): Promise<Person[]> {
    return peopleOf(this.deps.db, oneMerchant(actor, merchantId), page);
  }

  /**
   * Removes a person (an owner or the operator): their sessions end at once, open streams too, and
   * every key they issued is revoked in the same transaction. The last owner stays.
   */
  async remove(actor: Actor, personId: string): Promise<Person> {
    mayManagePeople(actor);
    if (!isUuid(personId)) throw new AppError('NOT_FOUND', 'no such person');
    const merchantId = actor.kind === 'merchant' ? actor.merchant.id : undefined;
    const { person, sessions, keys } = await this.deps.db.transaction().execute(async (tx) => {
      const target = merchantId ?? (await merchantOfPerson(tx, personId.toLowerCase()));
      const person = target && (await removePerson(tx, target, personId.toLowerCase()));
      if (!person) throw new AppError('NOT_FOUND', 'no such person');
      if (person.role === 'owner' && (await ownerCount(tx, person.merchantId)) === 0) throw new AppError('CONFLICT', 'the last owner cannot be removed');
      const sessions = await revokeSessionsOf(tx, person.id);
      const keys = await revokeKeysIssuedBy(tx, person.id);
      await recordAudit(tx, { actor: actorLabel(actor), action: 'person.remove', merchantId: person.merchantId, detail: { person_id: person.id, revoked_keys: keys.map((k) => k.kid) } });
      return { person, sessions, keys };
    });
    this.sessions.end(sessions);
    this.keys.keysChanged(keys);
    return person;
  }

  /**
   * Changes a person's role (an owner or the operator). The keys they issued are lowered to the
   * new role where they carried more (never raised: a key is what it was issued as). The last
   * owner stays an owner.
   */
  async changeRole(actor: Actor, personId: string, role: Role): Promise<Person> {
    mayManagePeople(actor);
    if (!isUuid(personId)) throw new AppError('NOT_FOUND', 'no such person');
    const merchantId = actor.kind === 'merchant' ? actor.merchant.id : undefined;
    const { person, keys } = await this.deps.db.transaction().execute(async (tx) => {
      const target = merchantId ?? (await merchantOfPerson(tx, personId.toLowerCase()));
      const person = target && (await setRole(tx, target, personId.toLowerCase(), role));
      if (!person) throw new AppError('NOT_FOUND', 'no such person');
      if (role !== 'owner' && (await ownerCount(tx, person.merchantId)) === 0) throw new AppError('CONFLICT', 'the last owner cannot stop being one');
      const keys = await lowerKeysIssuedBy(tx, person.id, role);
      await recordAudit(tx, { actor: actorLabel(actor), action: 'person.role', merchantId: person.merchantId, detail: { person_id: person.id, role, lowered_keys: keys.map((k) => k.kid) } });
      return { person, keys };
    });
    this.keys.keysChanged(keys);
    return person;
  }

  /**
   * What ends a merchant caller's open streams: its key's end (revoked, regenerated, expired), or
   * its session's (signed out, person removed, 12 hours, 30 idle minutes).
   */
  watchCaller: WatchCaller = (actor, onEnd) => (actor.person ? this.sessions.watch(actor.person.sessionId, onEnd) : this.keys.watch(actor.key, onEnd));

  /** Reads the watched sessions again: those no longer valid end their streams. */
  recheck(): Promise<void> {
    return this.sessions.recheck();
  }

  stop() {
    this.sessions.stop();
  }
}
