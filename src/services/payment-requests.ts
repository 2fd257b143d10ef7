import { enqueue } from '../db/jobs.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, requireMerchant } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { QUEUE } from '../domain/jobs.ts';
import type { Payment, PaymentLinks as Links } from '../domain/payment.ts';
import type { RequestPaymentInput } from '../domain/payment-request.ts';
import type { ServiceDeps } from './deps.ts';
import type { PaymentService } from './payments.ts';

/** What a request made: the payment, where it is paid, and whether this call made it (false: a replay, nothing sent again). */
export interface PaymentRequest {
  payment: Payment;
  links: Links & { qrCode: NonNullable<Links['qrCode']> };
  created: boolean;
}

/** The job that e-mails a request: the payment it asks for (tasks/payment-request-email.ts). */
export interface PaymentRequestJob {
  payment: string;
}

/**
 * One-off payment requests (CONTRACT §11, docs/links.md): an owner names the amount, what it is
 * for and the customer's e-mail; zarpay makes the payment with that e-mail and queues, in the same
 * transaction, a job (`payment.request_email`) that e-mails the customer the payment's page,
 * retried as confirmations are. By e-mail only: where SMTP_URL is not set the request is refused
 * before anything is made, and no SMS ever carries the link.
 */
export class PaymentRequestService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly payments: PaymentService,
  ) {}

  /** Whether this deployment can send requests (SMTP_URL is set). */
  get available(): boolean {
    return this.deps.config.smtp !== null;
  }

  async send(actor: Actor, input: RequestPaymentInput): Promise<PaymentRequest> {
    requireMerchant(actor);
    authorize(actor, 'payments.request');
    if (!this.available) {
      const message = 'e-mail is off on this service (SMTP_URL is not set): a payment request goes by e-mail only';
      throw new AppError('VALIDATION_FAILED', `customerEmail: ${message}`, { fields: [{ path: ['customerEmail'], message }] });
    }
    const { payment, created } = await this.payments.initRequest(actor, input, async (tx, made) => {
      await enqueue(tx, { queue: QUEUE.paymentRequestEmail, key: made.id, merchantId: made.merchantId, payload: { payment: made.id } satisfies PaymentRequestJob });
    });
    return { payment, links: { paymentUrl: this.payments.links(payment).paymentUrl, qrCode: this.payments.qrCode(payment) }, created };
  }
}
