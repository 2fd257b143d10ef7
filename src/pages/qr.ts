import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { AppError } from '../domain/errors.ts';
import type { Services } from '../services/index.ts';

const FILE = /^([0-9a-fA-F-]{36})\.(png|svg)$/;
/** Spec: at least 128×128, preferably 256×256; 512 leaves room for phone screens at 2× density. */
const PNG_WIDTH = 512;

/**
 * `GET /qr/{payment_id}.png|.svg?expires=…&signature=…`: the QR code of `payment_url`, for a
 * signed, unexpired link only (403 FORBIDDEN otherwise). One signature serves both formats.
 */
export async function qrRoutes(app: FastifyInstance, opts: { services: Services }) {
  app.get<{ Params: { file: string }; Querystring: Record<string, unknown> }>('/qr/:file', async (req, reply) => {
    const match = FILE.exec(req.params.file);
    if (!match) throw new AppError('FORBIDDEN', 'invalid or expired QR code link');
    const [, id, format] = match;
    const paymentUrl = opts.services.paymentLinks.verifyQr(id!, req.query.expires, req.query.signature);
    reply.header('Cache-Control', 'private, max-age=300').header('X-Content-Type-Options', 'nosniff');
    if (format === 'svg') {
      const svg = await QRCode.toString(paymentUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
      return reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'").type('image/svg+xml').send(svg);
    }
    const png = await QRCode.toBuffer(paymentUrl, { type: 'png', width: PNG_WIDTH, errorCorrectionLevel: 'M', margin: 4 });
    return reply.type('image/png').send(png);
  });
}
