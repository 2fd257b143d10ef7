import type { TestApp } from './app.ts';
import { http, type TestMerchant } from './client.ts';

let orders = 0;

/** A valid initiation body with a fresh merchant_order_id, overridden by `extra`. */
export function paymentBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { amount: 12_345, currency: 'ZAR', merchant_order_id: `order-${process.pid}-${++orders}`, ...extra };
}

export async function initPayment(t: TestApp, m: TestMerchant, body: Record<string, unknown> = paymentBody(), headers: Record<string, string> = {}) {
  return http(t, 'POST', '/api/v1/payments/init', { key: m.key, body, headers });
}

/** Initiates a payment that must succeed and returns its `data`. */
export async function newPayment(t: TestApp, m: TestMerchant, extra: Record<string, unknown> = {}) {
  const res = await initPayment(t, m, paymentBody(extra));
  if (res.status !== 200) throw new Error(`init failed: ${JSON.stringify(res.body)}`);
  return res.body.data as { payment_id: string; status: string; payment_url: string; qr_code?: { content: string; image_url: string } };
}

export async function getPayment(t: TestApp, m: TestMerchant, id: string) {
  return http(t, 'GET', `/api/v1/payments/${id}`, { key: m.key });
}

/** The path part of an address the service handed out (PUBLIC_BASE_URL is not the test port). */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** The hosted page's hidden form token, read from the page as a browser would. */
export async function pageToken(t: TestApp, id: string): Promise<string> {
  const page = await http(t, 'GET', `/pay/${id}`);
  const match = /name="token" value="([0-9a-f]{64})"/.exec(String(page.body));
  if (!match) throw new Error(`no form token on the page (status ${page.status})`);
  return match[1]!;
}

/** A plain HTML form post to the hosted page, as a browser without JavaScript sends it. */
export async function formPost(t: TestApp, path: string, fields: Record<string, string>) {
  const res = await fetch(t.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers };
}

/** Polls the payment until it reaches `status` (the sandbox confirms asynchronously). */
export async function waitForStatus(t: TestApp, m: TestMerchant, id: string, status: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await getPayment(t, m, id);
    if (res.body.data?.status === status) return res.body.data;
    if (Date.now() > deadline) throw new Error(`payment ${id} is ${res.body.data?.status}, not ${status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Presses a button of the hosted page without a browser: read the token, post the form. */
export async function press(t: TestApp, id: string, action: 'pay' | 'cancel' | 'decline') {
  return formPost(t, `/pay/${id}/${action}`, { token: await pageToken(t, id) });
}
