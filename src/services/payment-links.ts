import type { Config } from '../config.ts';
import { AppError } from '../domain/errors.ts';
import type { Payment } from '../domain/payment.ts';
import { deriveKey, formMessage, hmacHex, hmacMatches, qrMessage } from '../domain/signing.ts';
import { isUuid } from '../domain/ids.ts';

/**
 * The addresses zarpay hands out for a payment and the HMACs that make them unforgeable: the
 * hosted page, its signed QR image links, and the page's per-payment form token. Each HMAC has
 * its own key derived from SERVICE_SECRET.
 */
export class PaymentLinks {
  private readonly qrKey: Buffer;
  private readonly formKey: Buffer;
  private readonly linkQrKey: Buffer;

  constructor(private readonly config: Pick<Config, 'publicBaseUrl' | 'qrUrlTtlMs' | 'serviceSecret'>) {
    this.qrKey = deriveKey(config.serviceSecret, 'qr-url');
    this.formKey = deriveKey(config.serviceSecret, 'payment-page-form');
    this.linkQrKey = deriveKey(config.serviceSecret, 'payment-link-qr-url');
  }

  paymentUrl(id: string) {
    return `${this.config.publicBaseUrl}/pay/${id}`;
  }

  /** A payment link's public page (CONTRACT §11). */
  linkUrl(linkId: string) {
    return `${this.config.publicBaseUrl}/l/${linkId}`;
  }

  /**
   * A payment link's signed QR image, `{base}/l/{id}/qr.png?expires=…&signature=…`, valid for
   * QR_URL_TTL_MS from now (a link lives longer than a payment: each answer signs afresh).
   */
  linkQrImageUrl(linkId: string): string {
    const expires = Math.floor((Date.now() + this.config.qrUrlTtlMs) / 1000);
    return `${this.config.publicBaseUrl}/l/${linkId}/qr.png?expires=${expires}&signature=${hmacHex(this.linkQrKey, qrMessage(linkId, expires))}`;
  }

  /** Checks a link's QR image address; FORBIDDEN for a bad, tampered or expired one. Returns the link's URL. */
  verifyLinkQr(linkId: string, expires: unknown, signature: unknown): string {
    const forbidden = () => new AppError('FORBIDDEN', 'invalid or expired QR code link');
    if (!isUuid(linkId) || typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) throw forbidden();
    if (!hmacMatches(this.linkQrKey, qrMessage(linkId.toLowerCase(), Number(expires)), signature)) throw forbidden();
    if (Number(expires) * 1000 <= Date.now()) throw forbidden();
    return this.linkUrl(linkId.toLowerCase());
  }

  /**
   * Where a redirecting provider sends the customer back: the hosted page's return address, which
   * asks the provider what happened (the outcome in the address is only a hint).
   */
  returnUrls(id: string) {
    const base = `${this.config.publicBaseUrl}/pay/${id}/return`;
    return { success: `${base}?outcome=success`, cancel: `${base}?outcome=cancel`, failure: `${base}?outcome=failure` };
  }

  /** `{base}/qr/{id}.png?expires=…&signature=…`, valid until created_at + QR_URL_TTL_MS. */
  qrImageUrl(p: Pick<Payment, 'id' | 'createdAt'>): string {
    const expires = Math.floor((p.createdAt.getTime() + this.config.qrUrlTtlMs) / 1000);
    return `${this.config.publicBaseUrl}/qr/${p.id}.png?expires=${expires}&signature=${hmacHex(this.qrKey, qrMessage(p.id, expires))}`;
  }

  /** Checks a QR link; FORBIDDEN for a bad, tampered or expired one. Returns the payment URL. */
  verifyQr(id: string, expires: unknown, signature: unknown): string {
    const forbidden = () => new AppError('FORBIDDEN', 'invalid or expired QR code link');
    if (!isUuid(id) || typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) throw forbidden();
    if (!hmacMatches(this.qrKey, qrMessage(id.toLowerCase(), Number(expires)), signature)) throw forbidden();
    if (Number(expires) * 1000 <= Date.now()) throw forbidden();
    return this.paymentUrl(id.toLowerCase());
  }

  /** The hosted page's hidden form token for one payment. */
  formToken(id: string): string {
    return hmacHex(this.formKey, formMessage(id));
  }

  formTokenMatches(id: string, token: unknown): boolean {
    return hmacMatches(this.formKey, formMessage(id), token);
  }
}
