import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BANK_REPORT_BODY_LIMIT, bankReportJson } from '../src/domain/bank-report-json.ts';
import { AppError } from '../src/domain/errors.ts';
import { verifiedActor } from '../src/http/caller.ts';
import { success } from '../src/http/envelope.ts';
import { sendError } from '../src/http/reply.ts';
import type { Services } from '../src/services/index.ts';
import { noQuery } from './request.ts';
import { restField } from './wire.ts';

const gunzipAsync = promisify(gunzip);

const LIMIT_IN_WORDS = `${BANK_REPORT_BODY_LIMIT / 1024 / 1024} MiB`;

const XML = /^(application|text)\/xml\s*(;|$)/i;
const ENCODINGS = new Set(['identity', 'gzip']);

const tooLarge = () => new AppError('INVALID_INPUT', `request body is larger than ${LIMIT_IN_WORDS} (as sent, or once unzipped)`, { httpStatus: 413 });
const notXml = () => new AppError('INVALID_INPUT', 'request body must be the report\'s XML, sent as application/xml (or text/xml), gzipped (Content-Encoding: gzip) or not');

/** Fastify's refusals of a body, in this route's words (its limit is not the service's 64 KiB). */
function inOurWords(error: unknown): unknown {
  const code = (error as { code?: unknown })?.code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return tooLarge();
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP_')) return notXml();
  return error;
}

/**
 * The operator's own REST routes, under `/api/v1/operator`: for what does not fit GraphQL's 64 KiB
 * requests. Today one: a bank's report, as the bank wrote it, up to 32 MiB. They come in by the
 * `operator` gate (the operator token; a merchant's key is FORBIDDEN, no credentials 401), checked
 * before the body is read, so nobody else can make the service read 32 MiB.
 */
export async function operatorRoutes(app: FastifyInstance, opts: { services: Services; served: string[] }) {
  const { services } = opts;
  app.setErrorHandler((error, req, reply) => sendError(inOurWords(error), req, reply, restField));
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, gate: 'operator' };
    for (const method of [route.method].flat()) if (method !== 'HEAD') opts.served.push(`${method} ${route.url.replace(/:[^/]+/g, '{}')}`);
  });
  // After the caller step (the root's hook) and before the body is read.
  app.addHook('onRequest', (req: FastifyRequest, _reply: FastifyReply, done: (e?: Error) => void) => {
    if (req.actor?.kind !== 'operator') return done(new AppError('FORBIDDEN', 'only the operator may do this (send the operator token, not an API key)'));
    if (!XML.test(req.headers['content-type'] ?? '')) return done(notXml());
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (!ENCODINGS.has(encoding)) return done(new AppError('INVALID_INPUT', `Content-Encoding ${encoding} is not taken: send the XML as it is, or gzipped`));
    done();
  });
  app.addContentTypeParser(['application/xml', 'text/xml'], { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    if (req.headers['content-encoding']?.trim().toLowerCase() !== 'gzip') return done(null, bytes);
    gunzipAsync(bytes, { maxOutputLength: BANK_REPORT_BODY_LIMIT }).then(
      (plain) => done(null, plain),
      (e: NodeJS.ErrnoException) => done(e.code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge() : new AppError('INVALID_INPUT', 'request body is not valid gzip (Content-Encoding: gzip)'), undefined),
    );
  });

  app.post('/bank-reports', { bodyLimit: BANK_REPORT_BODY_LIMIT }, async (req, reply) => {
    noQuery(req);
    const bytes = req.body;
    if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw new AppError('INVALID_INPUT', 'request body is empty: send the report\'s XML');
    let content: string;
    try {
      content = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new AppError('INVALID_INPUT', 'request body is not UTF-8 text');
    }
    const report = await services.bankReports.import(verifiedActor(req, 'operator'), content);
    // Stored, its job applying it: 202; the same file applied in full before: 200, nothing changed.
    reply.code(report.alreadyImported ? 200 : 202);
    return success(bankReportJson(report));
  });
}
