import { randomUUID } from 'node:crypto';
import { recordAudit } from '../db/audit.ts';
import { enqueue } from '../db/jobs.ts';
import { personForSignIn, revokeSessionsOf } from '../db/people.ts';
import { insertReset, replacePassword, useReset } from '../db/person-security.ts';
import { AppError } from '../domain/errors.ts';
import { QUEUE } from '../domain/jobs.ts';
import { hashPassword, RESET_TTL_MS, RESETS_PER_HOUR, tokenDigest } from '../domain/people.ts';
import type { MailTransport } from '../outside/mail.ts';
import { type ServiceDeps, withEvents } from './deps.ts';
import type { PersonNotice } from './people.ts';

/**
 * A forgotten password (CONTRACT §11): a link by e-mail that sets a new one. The sessions a reset
 * ends are ended through `endSessions` (PeopleService's), which closes what they hold open.
 */
export class PasswordResetService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly mail: MailTransport | null,
    private readonly endSessions: (ids: readonly string[]) => void,
  ) {}

  /** Whether a forgotten password can be reset by e-mail here (SMTP is set). */
  get byEmail(): boolean {
    return Boolean(this.mail && this.deps.config.smtp);
  }

  /**
   * E-mails a link that sets a new password (valid an hour, once), through the `person.email`
   * queue. Answers the same whether or not the address belongs to anyone; at most 3 links per
   * person an hour (more asks send nothing, and say nothing of it).
   */
  async forgot(email: string): Promise<void> {
    if (!this.byEmail) throw new AppError('NOT_FOUND', 'password reset by e-mail is not set up on this service: ask an owner of your merchant, or the operator');
    const person = await personForSignIn(this.deps.db, email);
    if (!person) return;
    const reset = randomUUID();
    await withEvents(this.deps, async (tx) => {
      if (!(await insertReset(tx, { id: reset, personId: person.id, ttlMs: RESET_TTL_MS, perWindow: RESETS_PER_HOUR }))) return;
      await recordAudit(tx, { actor: 'system:sign-in', action: 'person.password_reset_requested', merchantId: person.merchantId, detail: { person_id: person.id } });
      const notice: PersonNotice = { person: person.id, notice: 'password_reset', reset };
      await enqueue(tx, { queue: QUEUE.personEmail, key: `password_reset:${reset}`, merchantId: person.merchantId, payload: notice });
    });
  }

  /**
   * Sets a new password from a reset link (the rules of an invite's), once. Every session of the
   * person ends (whoever knew the old password is signed out), and they sign in again with the
   * new one, their second factor too.
   */
  async reset(token: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    const sessions = await this.deps.db.transaction().execute(async (tx) => {
      const found = await useReset(tx, tokenDigest(token));
      if (!found || !(await replacePassword(tx, found.personId, passwordHash))) throw new AppError('FORBIDDEN', 'this link is not valid any more: ask for a new one');
      const sessions = await revokeSessionsOf(tx, found.personId);
      await recordAudit(tx, { actor: `merchant:${found.merchantId}/person:${found.personId}`, action: 'person.password_reset', merchantId: found.merchantId, detail: { person_id: found.personId, ended_sessions: sessions.length } });
      return sessions;
    });
    this.endSessions(sessions);
  }
}
