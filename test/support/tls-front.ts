/**
 * A stand-in for the TLS-terminating load balancer in front of a `prd` zarpay, for the README's
 * production walk on one machine: it forwards every request to `--to` with
 * `X-Forwarded-Proto: https` (and `X-Forwarded-For`), as a load balancer listed in TRUST_PROXY
 * does after taking off TLS. It does no TLS itself; nothing but the walk should use it.
 *
 *   node --import tsx test/support/tls-front.ts --port 8443 --to http://127.0.0.1:8080
 */
import { createServer, request } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, to: { type: 'string' } } });
const target = new URL(values.to!);
const server = createServer((req, res) => {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: target.host, 'x-forwarded-proto': 'https', 'x-forwarded-for': req.socket.remoteAddress ?? '' },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
});
server.listen(Number(values.port), '127.0.0.1', () => process.stdout.write(`tls-front listening on ${values.port}\n`));
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
