/**
 * The Yoco double as a process of its own, for the README's production walk (and its test):
 *
 *   node --import tsx test/support/yoco-double-server.ts --port 4343 > yoco.json
 *
 * prints `{"api_url": …, "secret_key": …}` once it listens (use them as YOCO_API_URL and
 * YOCO_SECRET_KEY; the webhook secret comes from registering a webhook, as with Yoco), and runs
 * until SIGTERM or SIGINT.
 */
import { parseArgs } from 'node:util';
import { startYocoDouble } from './yoco-double.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, live: { type: 'boolean', default: false } } });
const double = await startYocoDouble({
  port: Number(values.port),
  // A live-mode key makes refunds possible (Yoco refunds live payments only).
  ...(values.live && { secretKey: `sk_live_double${Date.now()}` }),
});
process.stdout.write(JSON.stringify({ api_url: double.apiUrl, secret_key: double.secretKey }) + '\n');
const stop = () => void double.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
