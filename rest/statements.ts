import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNTING_CSV_HEADER, accountingCsvLine, closingRow, entryRow, openingRow } from '../src/domain/accounting-statement.ts';
import { STATEMENT_CSV_HEADER, statementCsvLine, statementEntryJson, statementQuery } from '../src/domain/statement.ts';
import type { Services } from '../src/services/index.ts';
import type { StatementReader } from '../src/services/statements.ts';
import { merchantOf } from './request.ts';
import { parseWire } from './wire.ts';

/**
 * What the caller asks for: `?format=` decides; else CSV when `Accept` names text/csv ahead of (or
 * without) JSON, the accounting CSV when that text/csv carries `profile=accounting`.
 */
function wanted(req: FastifyRequest, format: 'json' | 'csv' | 'accounting' | undefined): 'json' | 'csv' | 'accounting' {
  if (format !== undefined) return format;
  const accept = (req.headers.accept ?? '').toLowerCase();
  const csv = accept.indexOf('text/csv');
  if (csv < 0) return 'json';
  const json = accept.indexOf('application/json');
  if (json >= 0 && json < csv) return 'json';
  // The media range's own parameters: up to the next range (a comma).
  const params = accept.slice(csv).split(',')[0]!.split(';').slice(1).map((p) => p.trim().replace(/\s*=\s*/, '='));
  return params.some((p) => p === 'profile=accounting' || p === 'profile="accounting"') ? 'accounting' : 'csv';
}

/**
 * The statement as the envelope's JSON, written as it is read: the opening balance first, each
 * entry as its batch arrives, and the closing balance and count last (they are known once the
 * entries have been read, and always agree with them).
 */
async function* jsonBody(s: StatementReader): AsyncGenerator<string> {
  yield `{"status":"success","data":{"from":${JSON.stringify(s.from)},"to":${JSON.stringify(s.to)},"opening_balance_cents":${s.openingBalanceCents},"entries":[`;
  let first = true;
  for await (const entry of s.entries) {
    yield (first ? '' : ',') + JSON.stringify(statementEntryJson(entry));
    first = false;
  }
  const { closingBalanceCents, total } = s.summary();
  yield `],"closing_balance_cents":${closingBalanceCents},"total":${total}}}`;
}

async function* csvBody(s: StatementReader): AsyncGenerator<string> {
  yield `${STATEMENT_CSV_HEADER}\r\n`;
  for await (const entry of s.entries) yield statementCsvLine(entry);
}

/** The statement for bookkeepers (CONTRACT §11): opening row, one row per entry, closing row. */
async function* accountingBody(s: StatementReader): AsyncGenerator<string> {
  yield `${ACCOUNTING_CSV_HEADER}\r\n${accountingCsvLine(openingRow(s.from, s.openingBalanceCents))}`;
  for await (const entry of s.entries) yield accountingCsvLine(entryRow(entry));
  yield accountingCsvLine(closingRow(s.to, s.summary().closingBalanceCents));
}

export function statementRoutes(app: FastifyInstance, services: Services) {
  // CONTRACT §10: streamed, so a year of a busy merchant's journal is never held in memory.
  app.get('/statements', { config: { rateLimit: 'balance', access: 'read' } }, async (req, reply) => {
    const query = parseWire(statementQuery, req.query ?? {}, 'query');
    const statement = await services.statements.open(merchantOf(req), query);
    const format = wanted(req, query.format);
    if (format === 'accounting') {
      reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="statement-accounting-${query.from}-${query.to}.csv"`)
        .header('X-Opening-Balance-Cents', String(statement.openingBalanceCents));
      return reply.send(Readable.from(accountingBody(statement)));
    }
    if (format === 'csv') {
      reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="statement-${query.from}-${query.to}.csv"`)
        .header('X-Opening-Balance-Cents', String(statement.openingBalanceCents));
      return reply.send(Readable.from(csvBody(statement)));
    }
    reply.type('application/json; charset=utf-8');
    return reply.send(Readable.from(jsonBody(statement)));
  });
}
