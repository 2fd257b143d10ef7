import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, http, op, type TestMerchant } from './support/client.ts';
import { formPost, newPayment, pageToken, press } from './support/payments.ts';

/** What a shopper reads on the hosted page, in the HTML itself (the browser test clicks through it). */

let t: TestApp;
let shop: TestMerchant;
beforeAll(async () => {
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
  shop = await createMerchant(t, { name: 'Kasi Coffee & Co' });
  await op(t, `mutation($id: UUID!) { updateMerchant(id: $id, input: { supportContact: "help@kasi.example.co.za" }) { merchant { id } } }`, { id: shop.id });
});
afterAll(() => t?.close());

const page = async (id: string, headers: Record<string, string> = {}, query = '') => {
  const res = await fetch(`${t.url}/pay/${id}${query}`, { headers, redirect: 'manual' });
  return { status: res.status, html: await res.text(), headers: res.headers };
};

describe('the hosted payment page', () => {
  it('says what is bought, from whom, how it is paid and whom to ask; Pay is the primary action', async () => {
    const p = await newPayment(t, shop, { description: 'Two flat whites <and> a vetkoek' });
    const { html } = await page(p.payment_id);
    expect(html).toContain('<h1 class="merchant" data-testid="merchant-name">Kasi Coffee &amp; Co</h1>');
    expect(html).toContain('<p class="description" data-testid="description">Two flat whites &lt;and&gt; a vetkoek</p>');
    expect(html).toContain('data-testid="payment-method">Payment method: test card (sandbox)</p>');
    expect(html).toContain('<a href="mailto:help@kasi.example.co.za">help@kasi.example.co.za</a>');
    expect(html).toMatch(/data-testid="pay" class="primary">Pay R 123\.45</);
    expect(html).toMatch(/data-testid="cancel" class="secondary">Cancel</);
    expect(html.indexOf('data-testid="pay"')).toBeLessThan(html.indexOf('data-testid="cancel"'));
    expect(html).not.toContain('<script');
  });

  it('speaks English, Afrikaans or isiZulu: Accept-Language, or ?lang= which the forms keep', async () => {
    const p = await newPayment(t, shop);
    const af = await page(p.payment_id, { 'accept-language': 'af-ZA,af;q=0.9,en;q=0.8' });
    expect(af.html).toContain('<html lang="af">');
    expect(af.html).toContain('Betaal R 123.45');
    expect(af.headers.get('content-language')).toBe('af');
    expect(af.headers.get('vary')).toMatch(/Accept-Language/);
    const zu = await page(p.payment_id, { 'accept-language': 'fr;q=0.9,zu;q=0.8' });
    expect(zu.html).toContain('Khokha R 123.45');
    const other = await page(p.payment_id, { 'accept-language': 'fr, de;q=0.5' });
    expect(other.html).toContain('<html lang="en">');
    const chosen = await page(p.payment_id, { 'accept-language': 'af' }, '?lang=zu');
    expect(chosen.html).toContain('<html lang="zu">');
    expect(chosen.html).toContain(`action="/pay/${p.payment_id}/cancel?lang=zu"`);
    expect(chosen.html).toContain(`href="/pay/${p.payment_id}?lang=af"`);
    expect((await page(p.payment_id, {}, '?lang=xx')).html).toContain('<html lang="en">');

    const cancelled = await formPost(t, `/pay/${p.payment_id}/cancel?lang=zu`, { token: await pageToken(t, p.payment_id) });
    expect(cancelled.location).toBe(`/pay/${p.payment_id}?lang=zu`);
    expect((await page(p.payment_id, {}, '?lang=zu')).html).toContain('Inkokhelo ikhanseliwe');
  });

  it('offers a way back to the shop on every final page, and Try again after a decline', async () => {
    await op(t, `mutation($id: UUID!) { updateMerchant(id: $id, input: { addRedirectDomains: ["kasi.example.co.za"] }) { merchant { id } } }`, { id: shop.id });
    const declined = await newPayment(t, shop, { intent_type: 'purchase' });
    await press(t, declined.payment_id, 'decline');
    const failed = await eventuallyStatus(declined.payment_id, 'failed');
    expect(failed).toContain('Payment declined');
    expect(failed).toContain('<a class="button" href="https://kasi.example.co.za/" data-testid="try-again">Try again</a>');
    expect(failed).toContain('data-testid="back">Back to Kasi Coffee &amp; Co</a>');

    const cancelled = await newPayment(t, shop, { success_url: 'https://kasi.example.co.za/thanks' });
    await press(t, cancelled.payment_id, 'cancel');
    const html = await eventuallyStatus(cancelled.payment_id, 'cancelled');
    expect(html).toContain('<a class="button secondary" href="https://kasi.example.co.za/" data-testid="back">Back to Kasi Coffee &amp; Co</a>');

    const bought = await newPayment(t, shop, { intent_type: 'purchase' });
    await press(t, bought.payment_id, 'pay');
    const captured = await eventuallyStatus(bought.payment_id, 'captured');
    expect(captured).toContain('data-testid="voucher-code"');
    expect(captured).toContain('data-testid="back">Back to Kasi Coffee &amp; Co</a>');
  });

  it('says how to get back when the shop gave no address at all', async () => {
    const bare = await createMerchant(t, { name: 'Spaza' });
    const p = await newPayment(t, bare);
    await press(t, p.payment_id, 'cancel');
    const html = await eventuallyStatus(p.payment_id, 'cancelled');
    expect(html).toContain('You can close this page and return to Spaza.');
    expect(html).not.toContain('data-testid="support-contact"');
  });

  it('answers a browser at / with a page of links and an API client with JSON', async () => {
    const html = await fetch(`${t.url}/`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    const text = await html.text();
    for (const link of ['/dashboard', '/docs', '/graphql', '/healthz']) expect(text).toContain(`href="${link}"`);
    const json = await http(t, 'GET', '/');
    expect(json.status).toBe(200);
    expect(json.body.data.links).toMatchObject({ dashboard: '/dashboard', docs: '/docs', graphql: '/graphql', health: '/healthz' });
    expect((await fetch(`${t.url}/favicon.svg`)).headers.get('content-type')).toMatch(/image\/svg\+xml/);
  });
});

describe('the page\'s buttons take the form token as their credential', () => {
  it('without a valid one there is no customer: the payment flow is never asked, nothing changes', async () => {
    const p = await newPayment(t, shop);
    const other = await newPayment(t, shop);
    const flow = t.app.services.paymentFlow;
    const asked = (['view', 'pay', 'cancel', 'returned'] as const).map((name) => vi.spyOn(flow, name));
    try {
      const forged: [string, Record<string, string>][] = [
        ['no token', {}],
        ['an empty token', { token: '' }],
        ['a made-up token', { token: '0'.repeat(64) }],
        ['another payment\'s token', { token: await pageToken(t, other.payment_id) }],
      ];
      for (const call of asked) call.mockClear();
      for (const action of ['pay', 'cancel', 'decline']) {
        for (const [what, fields] of forged) {
          const res = await formPost(t, `/pay/${p.payment_id}/${action}`, fields);
          expect(res.status, `${action} with ${what}`).toBe(403);
          expect(res.text, `${action} with ${what}`).toContain('This form is not valid any more');
        }
      }
      expect(asked.map((call) => call.mock.calls.length)).toEqual([0, 0, 0, 0]);
      expect((await page(p.payment_id)).html).toContain('data-testid="pay"');

      // The page's own token (of the payment's canonical id) is the customer's, whatever case the address is in.
      const token = await pageToken(t, p.payment_id);
      for (const call of asked) call.mockClear();
      const cancelled = await formPost(t, `/pay/${p.payment_id.toUpperCase()}/cancel`, { token });
      expect(cancelled.status).toBe(303);
      expect(asked[2]!.mock.calls).toEqual([[{ kind: 'customer', paymentId: p.payment_id }, p.payment_id]]);
      expect((await page(p.payment_id)).html).toContain('data-testid="payment-status"');
    } finally {
      for (const call of asked) call.mockRestore();
    }
  });

  it('a post to an address that is no payment\'s is PAYMENT_NOT_FOUND, token or not', async () => {
    for (const id of ['not-a-payment', '1234']) {
      const res = await formPost(t, `/pay/${id}/pay`, { token: '0'.repeat(64) });
      expect(res.status, id).toBe(404);
      expect(res.text).toContain('This payment does not exist.');
    }
  });
});

describe('a merchant support contact', () => {
  it('is an e-mail address, a phone number or an http(s) page, and can be cleared', async () => {
    const set = async (value: string | null) =>
      http(t, 'POST', '/graphql', {
        headers: { authorization: `Bearer ${t.config.operatorToken}` },
        body: { query: 'mutation($id: UUID!, $c: String) { updateMerchant(id: $id, input: { supportContact: $c }) { merchant { supportContact } } }', variables: { id: shop.id, c: value } },
      });
    expect((await set('+27 82 555 0123')).body.data.updateMerchant.merchant.supportContact).toBe('+27 82 555 0123');
    expect((await set('https://kasi.example.co.za/help')).body.data.updateMerchant.merchant.supportContact).toBe('https://kasi.example.co.za/help');
    const refused = await set('ask at the till');
    expect(refused.body.errors[0]).toMatchObject({ message: 'input.supportContact: must be an e-mail address, a phone number or an http(s) URL', extensions: { code: 'VALIDATION_FAILED' } });
    expect((await set('')).body.data.updateMerchant.merchant.supportContact).toBeNull();
  });
});

async function eventuallyStatus(id: string, status: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { html } = await page(id);
    if (html.includes(`data-status="${status}"`)) return html;
    if (Date.now() > deadline) throw new Error(`payment ${id} never showed ${status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
