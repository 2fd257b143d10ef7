import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { verifiedActor } from '../http/caller.ts';
import type { Services } from '../services/index.ts';

/** Spec: at least 128×128, preferably 256×256; 512 leaves room for phone screens at 2× density. */
const PNG_WIDTH = 512;

/**
 * `GET /qr/{payment_id}.png|.svg?expires=…&signature=…`: the QR code of `payment_url`, for a
 * signed, unexpired link only (403 FORBIDDEN otherwise): the signed link is the credential of the
 * `qrImage` gate (src/http/caller.ts), which hands over that payment's customer. One signature
 * serves both formats.
 */
export async function qrRoutes(app: FastifyInstance, opts: { services: Services }) {
  app.get<{ Params: { file: string } }>('/qr/:file', { config: { gate: 'qrImage' } }, async (req, reply) => {
    const paymentUrl = opts.services.paymentLinks.paymentUrl(verifiedActor(req, 'customer').paymentId);
    reply.header('Cache-Control', 'private, max-age=300').header('X-Content-Type-Options', 'nosniff');
    if (req.params.file.endsWith('.svg')) {
      const svg = await QRCode.toString(paymentUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
      return reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'").type('image/svg+xml').send(svg);
    }
    const png = await QRCode.toBuffer(paymentUrl, { type: 'png', width: PNG_WIDTH, errorCorrectionLevel: 'M', margin: 4 });
    return reply.type('image/png').send(png);
  });
}
