import { useState } from 'preact/hooks';
import { parseRand } from '../../../src/domain/money.ts';
import { ApiError, graphql, request } from '../graphql.ts';
import { useAction } from '../hooks.ts';
import { t, useLanguage } from '../i18n.ts';
import { Share } from '../share.tsx';
import { Failure, FieldProblem, rand } from '../ui.tsx';

/**
 * A one-off payment request (CONTRACT §11): the owner types the amount (rand, comma or dot), what
 * it is for and the customer's e-mail; zarpay makes the payment and e-mails the customer its page.
 * The page's address and QR code are shown too, to share another way.
 */

const RequestPayment = graphql(`
  mutation RequestPayment($input: RequestPaymentInput!) {
    requestPayment(input: $input) { paymentUrl qrCode { imageUrl } emailQueued payment { id amount description customer { email } } }
  }
`);

type Sent = { paymentUrl: string; imageUrl: string; amount: number; description: string; email: string };

export function PaymentRequest() {
  useLanguage();
  const [f, setF] = useState({ amount: '', description: '', email: '' });
  const [sent, setSent] = useState<Sent | null>(null);
  const a = useAction(async () => {
    const cents = parseRand(f.amount);
    if (cents === null) throw new ApiError('VALIDATION_FAILED', t('links.badAmount'), 200, [{ field: 'amountCents', message: t('request.badAmountHelp') }]);
    const r = (await request(RequestPayment, { input: { amountCents: cents, description: f.description, customerEmail: f.email.trim() } })).requestPayment;
    setSent({ paymentUrl: r.paymentUrl, imageUrl: r.qrCode.imageUrl, amount: r.payment.amount, description: r.payment.description ?? f.description, email: r.payment.customer?.email ?? f.email });
    setF({ amount: '', description: '', email: '' });
  });
  const field = (k: keyof typeof f, name: string, text: string, extra: Record<string, unknown>) => {
    const problem = a.error?.about(name) ? `request-${k}-problem` : undefined;
    return (
      <>
        <label for={`request-${k}`}>{text}</label>
        <input
          id={`request-${k}`}
          data-testid={`payment-request-${k}`}
          required
          value={f[k]}
          aria-describedby={problem}
          aria-invalid={problem ? 'true' : undefined}
          onInput={(e) => setF({ ...f, [k]: e.currentTarget.value })}
          {...extra}
        />
        <FieldProblem id={`request-${k}-problem`} error={a.error} field={name} />
      </>
    );
  };
  return (
    <details class="panel">
      <summary>{t('request.title')}</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        {field('amount', 'amountCents', t('request.amount'), { inputMode: 'decimal' })}
        {field('description', 'description', t('request.description'), { maxLength: 200 })}
        {field('email', 'customerEmail', t('request.email'), { type: 'email', autocomplete: 'off' })}
        <button type="submit" data-testid="payment-request-create" disabled={a.busy}>
          {t('request.submit')}
        </button>
        <Failure error={a.error} shownBeside={['amountCents', 'description', 'customerEmail']} />
      </form>
      {sent && (
        <div role="status" data-testid="payment-request-sent">
          <p>{t('request.sent', { amount: rand(sent.amount), description: sent.description, email: sent.email })}</p>
          <Share url={sent.paymentUrl} qrImageUrl={sent.imageUrl} text={t('links.payText', { description: sent.description })} testid="payment-request" title={t('request.page')} />
        </div>
      )}
    </details>
  );
}
