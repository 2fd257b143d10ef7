/**
 * The "bare" reference: node:http and a pg Pool running the same SQL as zarpay (as Kysely emits
 * it) and answering the same JSON, with no framework, no validation and no authentication (the
 * merchant comes in `X-Merchant-Id`). What zarpay costs on top of this is the framework's share.
 * "bare + auth": with `X-API-Key` instead, it first runs zarpay's key lookup (the same join and
 * the same HMAC check), so the run can tell the extra round trip from the framework's cost.
 *
 * Run as its own process: `node --import tsx bench/reference-server.ts` with DATABASE_URL and PORT.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import '../src/db/index.ts'; // int8 → number, as in zarpay
import { parseKey, secretMatches } from '../src/domain/api-key.ts';
import { payloadHash } from '../src/domain/canonical.ts';
import { paymentStatusJson } from '../src/domain/payment.ts';
import { balanceJson, payoutJson } from '../src/domain/wire.ts';
import { toBalance } from '../src/services/ledger.ts';
import { PAYMENT_COLUMNS, toPayment } from '../src/services/payments.ts';
import { PAYOUT_COLUMNS, toPayout } from '../src/services/payouts.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });

const pepper = createHmac('sha256', process.env.SERVICE_SECRET ?? '').update('zarpay api-key pepper v1').digest();

const PAYOUT = PAYOUT_COLUMNS.map((c) => `"${c}"`).join(', ');

const SQL = {
  auth: `select "m".*, "k"."id" as "key_id", "k"."kid", "k"."env", "k"."type", "k"."status", "k"."secret_hash", "k"."checksum",
    "k"."created_at" as "key_created_at", "k"."revoked_at", "k"."expires_at" from "api_keys" as "k"
    inner join "merchants" as "m" on "m"."id" = "k"."merchant_id" where "k"."kid" = $1`,
  payout: `select ${PAYOUT} from "payouts" where "id" = $1 and "merchant_id" = $2`,
  payment: `select ${PAYMENT_COLUMNS.map((c) => `"p"."${c}"`).join(', ')}, "a"."status" as "attempt_status", "a"."provider" as "attempt_provider",
    "a"."provider_ref" as "attempt_provider_ref", "a"."created_at" as "attempt_created_at" from "payments" as "p"
    left join lateral (select "status", "provider", "provider_ref", "created_at" from "payment_attempts" where "payment_id" = "p"."id"
    order by "seq" desc limit $1) as "a" on true where "p"."id" = $2`,
  balance: 'select * from "balances" where "merchant_id" = $1',
  list: `select "t"."total", ${PAYOUT_COLUMNS.map((c) => `"p"."${c}"`).join(', ')} from (select count(*) as "total" from "payouts" where "merchant_id" = $1) as "t"
    left join lateral (select ${PAYOUT} from "payouts" where "merchant_id" = $2 order by "seq" desc limit $3 offset $4) as "p" on true`,
  fee: 'select "payout_fee_cents" from "merchants" where "id" = $1',
  reserve: `update "balances" set "balance_cents" = balance_cents + $1, "reserved_cents" = reserved_cents + $2,
    "gross_cents" = gross_cents + $3, "fees_cents" = fees_cents + $4, "withdrawals_cents" = withdrawals_cents + $5,
    "updated_at" = now() where "merchant_id" = $6 and balance_cents - reserved_cents >= $7 returning *`,
  transaction:
    'insert into "ledger_transactions" ("id", "merchant_id", "kind", "payout_id", "payment_id", "memo") values ($1, $2, $3, $4, $5, $6)',
  entries:
    'insert into "ledger_entries" ("transaction_id", "merchant_id", "account", "amount_cents") values ($1, $2, $3, $4), ($5, $6, $7, $8)',
  insertPayout: `insert into "payouts" ("id", "merchant_id", "amount_cents", "fee_cents", "gross_amount_cents", "currency", "status",
    "payout_method", "payment_details", "merchant_reference", "description", "metadata", "request_hash")
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning *`,
  event: `insert into "events" ("id", "merchant_id", "type", "payout_id", "payment_id", "data", "webhook_url")
    values ($1, $2, $3, $4, $5, $6, $7) returning "id", "seq", "created_at"`,
};

type Statement = keyof typeof SQL;
/** Runs one of the statements above as a named prepared statement, as zarpay's pool does. */
const run = (client: pg.Pool | pg.PoolClient, name: Statement, values: unknown[]) =>
  client.query({ name, text: SQL[name], values });

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

/** The same transaction as `PayoutService.create` with no merchant_reference. */
async function createPayout(merchantId: string, body: any, res: ServerResponse) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows: [merchant] } = await run(client, 'fee', [merchantId]);
    const fee: number = merchant.payout_fee_cents;
    const gross = body.amount_cents + fee;
    const id = randomUUID();
    const { rows: [balance] } = await run(client, 'reserve', [0, gross, 0, 0, 0, merchantId, gross]);
    if (!balance) {
      await client.query('rollback');
      return send(res, 400, { status: 'error', error: { code: 'INSUFFICIENT_BALANCE', message: 'insufficient' } });
    }
    const txId = randomUUID();
    await run(client, 'transaction', [txId, merchantId, 'payout_reserve', id, null, null]);
    await run(client, 'entries', [txId, merchantId, 'merchant_available', -gross, txId, merchantId, 'merchant_reserved', gross]);
    const { rows: [row] } = await run(client, 'insertPayout', [
      id, merchantId, body.amount_cents, fee, gross, body.currency, 'pending', body.payout_method,
      JSON.stringify(body.payment_details), body.merchant_reference ?? null, body.description ?? null,
      body.metadata === undefined ? null : JSON.stringify(body.metadata), payloadHash(body),
    ]);
    const payout = payoutJson(toPayout(row));
    await run(client, 'event', [randomUUID(), merchantId, 'payout.created', id, null, JSON.stringify(payout), null]);
    await client.query('commit');
    send(res, 201, { status: 'success', data: payout });
  } catch (e) {
    await client.query('rollback').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/** The merchant of `X-API-Key` as KeyService.authenticate finds it, or of `X-Merchant-Id`. */
async function merchantOf(req: IncomingMessage): Promise<string> {
  const header = req.headers['x-api-key'];
  if (typeof header !== 'string') return String(req.headers['x-merchant-id'] ?? '');
  const parsed = parseKey(header);
  if (!parsed) return '';
  const { rows: [row] } = await run(pool, 'auth', [parsed.kid]);
  return row && secretMatches(pepper, parsed.secret, row.secret_hash) && row.status === 'active' ? row.id : '';
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  if (req.url === '/healthz') return send(res, 200, { status: 'success', data: { ok: true } });
  const merchantId = await merchantOf(req);
  if (!merchantId) return send(res, 401, { status: 'error', error: { code: 'UNAUTHORIZED', message: 'unauthorized' } });
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname;
  if (req.method === 'POST' && path === '/api/v1/payouts') return createPayout(merchantId, await readBody(req), res);
  if (req.method !== 'GET') return notFound(res, 'NOT_FOUND');
  if (path === '/api/v1/payouts/balance') {
    const { rows: [row] } = await run(pool, 'balance', [merchantId]);
    return row ? send(res, 200, { status: 'success', data: balanceJson(toBalance(row)) }) : notFound(res, 'NOT_FOUND');
  }
  if (path === '/api/v1/payouts') {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const { rows } = await run(pool, 'list', [merchantId, merchantId, limit, 0]);
    const payouts = rows.filter((r) => r.id !== null).map((r) => payoutJson(toPayout(r)));
    return send(res, 200, { status: 'success', data: { payouts, total: Number(rows[0].total) } });
  }
  if (path.startsWith('/api/v1/payouts/')) {
    const { rows: [row] } = await run(pool, 'payout', [path.slice('/api/v1/payouts/'.length), merchantId]);
    return row ? send(res, 200, { status: 'success', data: payoutJson(toPayout(row)) }) : notFound(res, 'PAYOUT_NOT_FOUND');
  }
  if (path.startsWith('/api/v1/payments/')) {
    const id = path.slice('/api/v1/payments/'.length);
    const { rows: [row] } = await run(pool, 'payment', [1, id]);
    if (!row || row.merchant_id !== merchantId) return notFound(res, 'PAYMENT_NOT_FOUND');
    const attempt = row.attempt_status === null ? null
      : { status: row.attempt_status, provider: row.attempt_provider, provider_ref: row.attempt_provider_ref, created_at: row.attempt_created_at };
    return send(res, 200, { status: 'success', data: paymentStatusJson(toPayment(row, attempt)) });
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
