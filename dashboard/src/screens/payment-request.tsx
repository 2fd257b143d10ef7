import { useState } from 'preact/hooks';
import { parseRand } from '../../../src/domain/money.ts';
import { ApiError, graphql, request } from '../graphql.ts';
import { useAction } from '../hooks.ts';
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
  const [f, setF] = useState({ amount: '', description: '', email: '' });
  const [sent, setSent] = useState<Sent | null>(null);
  const a = useAction(async () => {
    const cents = parseRand(f.amount);
    if (cents === null) throw new ApiError('VALIDATION_FAILED', 'The amount is not valid', 200, [{ field: 'amountCents', message: 'write it in rand, such as 450,00 or 450.00' }]);
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
      <summary>Request a payment by e-mail</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        {field('amount', 'amountCents', 'Amount in rand, such as 450,00', { inputMode: 'decimal' })}
        {field('description', 'description', 'What it is for', { maxLength: 200 })}
        {field('email', 'customerEmail', "The customer's e-mail address", { type: 'email', autocomplete: 'off' })}
        <button type="submit" data-testid="payment-request-create" disabled={a.busy}>
          Send the request
        </button>
        <Failure error={a.error} shownBeside={['amountCents', 'description', 'customerEmail']} />
      </form>
      {sent && (
        <div role="status" data-testid="payment-request-sent">
          <p>
            A request for <span class="money">{rand(sent.amount)}</span> ({sent.description}) is on its way to {sent.email}. Its payment page:
          </p>
          <Share url={sent.paymentUrl} qrImageUrl={sent.imageUrl} text={`Pay ${sent.description}:`} testid="payment-request" title="the payment page" />
        </div>
      )}
    </details>
  );
}
