/**
 * The "bare" reference: node:http and a pg Pool running zarpay's own statements (captured from
 * its services at the start of the run, see statements.ts), as named prepared statements like
 * zarpay's pool, answering the same JSON; no framework, no validation, no authentication (the
 * merchant comes in `X-Merchant-Id`), no logging, no metrics. What zarpay costs on top of this
 * is the price of everything a real service does around its SQL.
 *
 * Run as its own process: `node --import tsx bench/reference-server.ts` with DATABASE_URL, PORT
 * and BENCH_STATEMENTS (the captured statements, as JSON).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { toBalance } from '../src/db/ledger.ts';
import { toPayment } from '../src/db/payments.ts';
import { toPayout } from '../src/db/payouts.ts';
import { balanceJson } from '../src/domain/balance.ts';
import { payloadHash } from '../src/domain/canonical.ts';
import { paymentJson } from '../src/domain/payment-json.ts';
import { payoutJson } from '../src/domain/payout-json.ts';
import { openStatements } from './references/statements-pool.ts';

const { pool, merchants, run, createPayout: create } = await openStatements(process.env.DATABASE_URL!, process.env.BENCH_STATEMENTS!);

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const notFound = (res: ServerResponse, code: string) =>
  send(res, 404, { status: 'error', error: { code, message: 'not found' }, metadata: { timestamp: new Date().toISOString(), api_version: 'v1' } });

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** PayoutService.create's statement, with the values zarpay would give it. */
async function createPayout(merchantId: string, body: any, res: ServerResponse) {
  const created = await create(merchantId, body);
  if (!created) return send(res, 400, { status: 'error', error: { code: 'INSUFFICIENT_BALANCE', message: 'insufficient' } });
  send(res, 201, { status: 'success', data: payoutJson(created) });
}

/** PaymentService.init's statement (no Idempotency-Key), with the values zarpay would give it. */
async function initPayment(merchantId: string, body: any, res: ServerResponse) {
  const id = randomUUID();
  const { rows: [row] } = await run('paymentInit', {
    merchant: merchantId, payment: id, orderId: body.merchant_order_id, amount: body.amount, paramsHash: payloadHash(body),
  });
  if (!row?.id) return send(res, 409, { status: 'error', error: { code: 'DUPLICATE_ORDER_ID', message: 'used' } });
  send(res, 200, {
    status: 'success',
    data: { payment_id: id, status: 'created', payment_url: `http://localhost/pay/${id}` },
    metadata: { timestamp: new Date().toISOString(), api_version: 'v1' },
  });
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  if (req.url === '/healthz') return send(res, 200, { status: 'success', data: { ok: true } });
  const merchantId = String(req.headers['x-merchant-id'] ?? '');
  if (!merchants.has(merchantId)) return send(res, 401, { status: 'error', error: { code: 'UNAUTHORIZED', message: 'unauthorized' } });
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname;
  if (req.method === 'POST' && path === '/api/v1/payouts') return createPayout(merchantId, await readBody(req), res);
  if (req.method === 'POST' && path === '/api/v1/payments/init') return initPayment(merchantId, await readBody(req), res);
  if (req.method !== 'GET') return notFound(res, 'NOT_FOUND');
  if (path === '/api/v1/payouts/balance') {
    const { rows: [row] } = await run('balance', { merchant: merchantId });
    return row ? send(res, 200, { status: 'success', data: balanceJson(toBalance(row)) }) : notFound(res, 'NOT_FOUND');
  }
  if (path === '/api/v1/payouts') {
    const { rows } = await run('payoutList', { merchant: merchantId });
    const payouts = rows.filter((r) => r.id !== null).map((r) => payoutJson(toPayout(r)));
    return send(res, 200, { status: 'success', data: { payouts, total: Number(rows[0].total) } });
  }
  if (path.startsWith('/api/v1/payouts/')) {
    const { rows: [row] } = await run('payoutGet', { payout: path.slice('/api/v1/payouts/'.length), merchant: merchantId });
    return row ? send(res, 200, { status: 'success', data: payoutJson(toPayout(row)) }) : notFound(res, 'PAYOUT_NOT_FOUND');
  }
  if (path.startsWith('/api/v1/payments/')) {
    const { rows: [row] } = await run('paymentGet', { payment: path.slice('/api/v1/payments/'.length), merchant: merchantId });
    if (!row) return notFound(res, 'PAYMENT_NOT_FOUND');
    // A bench payment is never captured: no voucher to open.
    return send(res, 200, { status: 'success', data: paymentJson({ ...toPayment(row), voucherCode: null }) });
  }
  notFound(res, 'NOT_FOUND');
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => send(res, 500, { status: 'error', error: { code: 'INTERNAL_ERROR', message: 'unexpected' } }));
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
});
