import QRCode from 'qrcode';
import { recordAudit } from '../db/audit.ts';
import {
  acceptStep,
  factorOf,
  recoveryCodesLeft,
  removeFactor,
  replaceRecoveryCodes,
  startFactor,
  useRecoveryCode,
} from '../db/person-security.ts';
import { AppError } from '../domain/errors.ts';
import { acceptedStep, isRecoveryCode, newRecoveryCodes, newTotpSecret, recoveryDigest, totpUri } from '../domain/second-factor.ts';
import { type ServiceDeps, keyringOf } from './deps.ts';

/** What a person scans to set up their second factor: the URI, the same as a QR image, and the secret to type by hand. */
export interface TotpSetup {
  otpauthUri: string;
  qrDataUrl: string;
  secret: string;
}

/** How a code was accepted. */
export type FactorUsed = 'totp' | 'recovery_code';

/**
 * The TOTP second factor of one person (CONTRACT §11): its secret sealed with the data keys
 * (purpose `totp-secret`, bound to the person's id), every accepted step recorded so no code
 * works twice, and ten recovery codes kept as digests, each used once. It only checks and
 * records: who may ask, and what a failure costs (the sign-in lock), the people service decides.
 */
export class SecondFactors {
  constructor(private readonly deps: ServiceDeps) {}

  private open(personId: string, sealed: Buffer): string {
    return keyringOf(this.deps).open('totp-secret', personId, sealed);
  }

  /** Whether the person has a confirmed second factor. */
  async enabled(personId: string): Promise<boolean> {
    return (await factorOf(this.deps.db, personId))?.confirmed === true;
  }

  async recoveryCodesLeft(personId: string): Promise<number> {
    return recoveryCodesLeft(this.deps.db, personId);
  }

  /** A new secret to scan (replacing one not yet confirmed); CONFLICT when one is confirmed already. */
  async begin(personId: string, email: string): Promise<TotpSetup> {
    const secret = newTotpSecret();
    const sealed = keyringOf(this.deps).seal('totp-secret', personId, secret);
    if (!(await startFactor(this.deps.db, personId, sealed))) throw new AppError('CONFLICT', 'you have a second factor already: remove it first to set up another');
    const otpauthUri = totpUri(secret, email);
    return { otpauthUri, qrDataUrl: await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: 'M', margin: 2, width: 240 }), secret };
  }

  /**
   * Confirms the secret being set up with a code from the app: it is asked at every sign-in from
   * now on. The ten recovery codes, returned here only; undefined when the code is wrong.
   */
  async confirm(personId: string, code: string, actor: string, merchantId: string): Promise<string[] | undefined> {
    const factor = await factorOf(this.deps.db, personId);
    if (!factor) throw new AppError('CONFLICT', 'there is no second factor being set up: start again');
    if (factor.confirmed) throw new AppError('CONFLICT', 'you have a second factor already');
    const step = acceptedStep(this.open(personId, factor.sealed), code, factor.lastStep);
    if (step === null) return undefined;
    const codes = newRecoveryCodes();
    const done = await this.deps.db.transaction().execute(async (tx) => {
      if (!(await acceptStep(tx, personId, step, true))) return false;
      await replaceRecoveryCodes(tx, personId, codes.map(recoveryDigest));
      await recordAudit(tx, { actor, action: 'person.second_factor_enabled', merchantId, detail: { person_id: personId } });
      return true;
    });
    return done ? codes : undefined;
  }

  /**
   * Checks a code of a confirmed factor: a TOTP code (within a step of now, later than the last
   * accepted) or an unused recovery code, which is then used up. Undefined when it is neither.
   */
  async check(personId: string, code: string, actor: string, merchantId: string): Promise<FactorUsed | undefined> {
    const factor = await factorOf(this.deps.db, personId);
    if (!factor?.confirmed) return undefined;
    if (isRecoveryCode(code)) {
      const left = await useRecoveryCode(this.deps.db, personId, recoveryDigest(code));
      if (left === undefined) return undefined;
      await recordAudit(this.deps.db, { actor, action: 'person.recovery_code_used', merchantId, detail: { person_id: personId, recovery_codes_left: left } });
      return 'recovery_code';
    }
    const step = acceptedStep(this.open(personId, factor.sealed), code, factor.lastStep);
    if (step === null || !(await acceptStep(this.deps.db, personId, step, false))) return undefined;
    return 'totp';
  }

  /** Removes the factor and its recovery codes. */
  async remove(personId: string, actor: string, merchantId: string): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      await removeFactor(tx, personId);
      await recordAudit(tx, { actor, action: 'person.second_factor_removed', merchantId, detail: { person_id: personId } });
    });
  }
}
