import { once } from 'node:events';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** One POST the receiver got. */
export interface Receipt {
  /** `webhook-id`: the event's id. */
  id: string;
  /** When it arrived (ms since the epoch). */
  at: number;
  /** The merchant whose URL it was sent to (the last path segment). */
  shop: string;
  /** Its `webhook-signature` verified with the merchant's secret, as the merchant's code would. */
  verified: boolean;
}

/**
 * Every merchant's webhook endpoint, `/hook/<shop>`: records each POST, checks its signature with
 * Standard Webhooks' own library, and answers 200 at once (the soak's merchants never refuse).
 */
export class WebhookReceiver {
  readonly receipts: Receipt[] = [];
  private readonly verifiers = new Map<string, Webhook>();
  private readonly server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const shop = (req.url ?? '').split('/').at(-1) ?? '';
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id'] ?? '');
      let verified = false;
      try {
        this.verifiers.get(shop)?.verify(body, {
          'webhook-id': id,
          'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
        });
        verified = this.verifiers.has(shop);
      } catch {
        // recorded as unverified: the check counts it
      }
      this.receipts.push({ id, at: Date.now(), shop, verified });
      res.writeHead(200).end();
    });
  });
  url = '';

  async start() {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hook`;
  }

  /** The merchant's signing secret (`whsec_…`), from the moment it is created. */
  trust(shop: string, secret: string) {
    this.verifiers.set(shop, new Webhook(secret));
  }

  async close() {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}
