import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR } from '../src/domain/actor.ts';
import { isInternalAddress, webhookUrlProblem } from '../src/domain/webhook-url.ts';
import { guardedLookup, postWebhook, type Resolve, webhookTransport } from '../src/outside/webhook-http.ts';
import { type App, createApp } from '../src/server.ts';
import { createServices } from '../src/runtime.ts';
import { borrowed, PRD_PROVIDER, startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, payoutBody } from './support/client.ts';
import { paymentBody } from './support/payments.ts';
import { eventually, type Receiver, startReceiver } from './support/receiver.ts';

describe('production webhook targets', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1'])(
    'treats %s as internal',
    (address) => expect(isInternalAddress(address)).toBe(true),
  );
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('treats %s as public', (address) => expect(isInternalAddress(address)).toBe(false));

  // IPv6 forms that carry an IPv4 address: IPv4-compatible (::/96, all refused), IPv4-mapped
  // (::ffff:0:0/96) and 6to4 (2002::/16), both judged by the IPv4 inside, in every spelling.
  it.each([
    '::7f00:1', '::127.0.0.1', '::a00:1', '::808:808', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '::FFFF:C0A8:0101', '::ffff:0:7f00:1',
    '2002:7f00:1::', '2002:7f00:0001:0:0:0:0:1', '2002:a9fe:a9fe::1', '2002:c0a8:101:1::1', '2002:a00:1::', '2002::',
  ])('treats %s (an IPv4 in IPv6 clothing) as internal', (address) => expect(isInternalAddress(address)).toBe(true));
  it.each(['::ffff:808:808', '2002:808:808::1', '2002:101:101:1::1'])('treats %s (a public IPv4 inside) as public', (address) => expect(isInternalAddress(address)).toBe(false));
  it.each(['not an address', '1.2.3', 'fe80::1%eth0'])('treats %s, which it cannot judge, as internal', (address) => expect(isInternalAddress(address)).toBe(true));

  it('refuses literal IPv6 webhook hosts that carry an internal IPv4, however the URL spells them', () => {
    for (const url of ['https://[::ffff:127.0.0.1]/hook', 'https://[::127.0.0.1]/hook', 'https://[2002:7f00:1::]/hook', 'https://[2002:a9fe:a9fe::]/latest/meta-data']) {
      expect(webhookUrlProblem(url, true), url).toMatch(/loopback, private or link-local/);
    }
    expect(webhookUrlProblem('https://[2002:808:808::1]/hook', true)).toBeNull();
  });

  it('refuses plain http, credentials and literal internal hosts in prd, and allows them in tst/dev', () => {
    expect(webhookUrlProblem('http://example.com/hook', true)).toMatch(/https/);
    expect(webhookUrlProblem('https://user:pw@example.com/hook', true)).toMatch(/credentials/);
    expect(webhookUrlProblem('https://127.0.0.1/hook', true)).toMatch(/loopback/);
    expect(webhookUrlProblem('https://[::1]/hook', true)).toMatch(/loopback/);
    expect(webhookUrlProblem('https://localhost/hook', true)).toMatch(/loopback/);
    expect(webhookUrlProblem('https://example.com/hook', true)).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:3000/hook', false)).toBeNull();
    expect(webhookUrlProblem('ftp://example.com', false)).toMatch(/http/);
  });

  it('checks every resolved address at connect time, so a name pointing inside is refused', async () => {
    const receiver = await startReceiver();
    // The lookup the HTTP client connects through: `localhost` resolves (hosts file) to 127.0.0.1.
    for (const all of [true, false]) {
      const outcome = await new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        guardedLookup('localhost', { all }, (err, address) => resolve({ err, address })),
      );
      expect(outcome.err?.code).toBe('EWEBHOOKTARGET');
      expect(outcome.err?.message).toMatch(/non-public address/);
    }
    const refused = await postWebhook('http://127.0.0.1:9/hook', {}, '{}', { timeoutMs: 2000, publicOnly: true });
    expect(refused).toMatchObject({ ok: false, statusCode: null, error: 'webhook URL must use https' });
    // The same receiver is reachable when the rules allow it (tst/dev).
    const allowed = await postWebhook(receiver.url, { 'content-type': 'application/json' }, '{}', { timeoutMs: 2000, publicOnly: false });
    expect(allowed).toMatchObject({ ok: true, statusCode: 200 });
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });
});

/** Names that look public but reach inside: refused when a webhook URL is set in prd, with a reason. */
const TRICKS: [string, RegExp][] = [
  ['https://localhost./hook', /end its host name with a dot/],
  ['https://localhost../hook', /end its host name with a dot/],
  ['https://hooks.shop.example./hook', /end its host name with a dot/],
  ['https://127.0.0.1./hook', /loopback, private or link-local/],
  ['https://printer.local/hook', /loopback, private or link-local/],
  ['https://api.internal/hook', /loopback, private or link-local/],
  ['https://router.home.arpa/hook', /loopback, private or link-local/],
  ['https://localtest.me/hook', /localtest\.me, a wildcard DNS service/],
  ['https://shop.localtest.me/hook', /localtest\.me, a wildcard DNS service/],
  ['https://127.0.0.1.nip.io/hook', /nip\.io, a wildcard DNS service/],
  ['https://10-0-0-1.SSLIP.io/hook', /sslip\.io, a wildcard DNS service/],
  ['https://169.254.169.254.xip.io/latest/meta-data', /xip\.io/],
  ['https://lvh.me:8443/hook', /lvh\.me/],
  ['https://app.localhost.direct/hook', /localhost\.direct/],
];

describe('webhook URLs set in prd', () => {
  it.each(TRICKS)('refuses %s, saying why', (url, why) => expect(webhookUrlProblem(url, true)).toMatch(why));

  it('still takes public names, however close their spelling', () => {
    for (const url of ['https://hooks.shop.example/zarpay', 'https://nip.io.shop.example/hook', 'https://notnip.io/hook', 'https://localtest.me.shop.example/hook', 'https://internal.shop.example/hook']) {
      expect(webhookUrlProblem(url, true), url).toBeNull();
    }
    // tst/dev take them all: receivers on a laptop are the point there.
    for (const [url] of TRICKS) expect(webhookUrlProblem(url.replace('https:', 'http:'), false), url).toBeNull();
  });
});

/** A DNS of the test's own: every name in `answers` resolves as given, and nothing else does. */
function fakeDns(answers: Record<string, string>): Resolve {
  return (hostname, callback) => {
    const address = answers[hostname];
    if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  };
}

describe('webhook deliveries in prd', () => {
  let t: TestApp;
  let prd: App;
  let prdUrl: string;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    // The tst service runs no deliveries: only the prd one, with its prd transport, does.
    t = await startApp({ RUN_DISPATCHER: 'false' });
    const config = {
      ...t.config,
      serviceEnv: 'prd' as const,
      trustProxy: true,
      publicBaseUrl: PRD_PROVIDER.PUBLIC_BASE_URL,
      runDispatcher: true,
      webhookRetryDelaysMs: [60_000],
      yoco: { secretKey: PRD_PROVIDER.YOCO_SECRET_KEY, webhookSecret: PRD_PROVIDER.YOCO_WEBHOOK_SECRET, apiUrl: PRD_PROVIDER.YOCO_API_URL },
    };
    // `hooks.rebound.example` is a public-looking name whose DNS answers loopback, as a rebinding attacker's would.
    const webhooks = webhookTransport(fakeDns({ 'hooks.rebound.example': '127.0.0.1', 'hooks.mapped.example': '::ffff:127.0.0.1', 'hooks.v6.example': 'fd12::1' }));
    prd = createApp(createServices(config, borrowed(t.database), { webhooks }));
    prdUrl = await prd.start();
  });
  afterAll(async () => {
    await prd?.stop();
    await t?.close();
    await receiver?.close();
  });

  const prdCall = (method: string, path: string, opts: Parameters<typeof http>[3] = {}) =>
    http({ url: prdUrl }, method, path, { ...opts, headers: { 'x-forwarded-proto': 'https', ...opts.headers } });

  it('refuses the tricks when a merchant or the operator sets the URL: VALIDATION_FAILED naming webhook_url, nothing changed', async () => {
    const m = await createMerchant(t);
    const { fullKey } = await prd.services.keys.issue(OPERATOR, m.id);
    for (const [webhook_url, why] of TRICKS) {
      const rest = await prdCall('PATCH', '/api/v1/merchant', { key: fullKey, body: { webhook_url } });
      expect(rest.status, webhook_url).toBe(400);
      expect(rest.body.error, webhook_url).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'webhook_url', message: expect.stringMatching(why) }] });
    }
    const operator = await prdCall('POST', '/graphql', {
      headers: { authorization: `Bearer ${t.config.operatorToken}` },
      body: { query: 'mutation($id: UUID!, $u: String) { updateMerchant(id: $id, input: { webhookUrl: $u }) { merchant { id } } }', variables: { id: m.id, u: 'https://127.0.0.1.nip.io/hook' } },
    });
    expect(operator.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(operator.body.errors?.[0]?.message).toMatch(/nip\.io/);
    expect((await prdCall('GET', '/api/v1/merchant', { key: fullKey })).body.data.webhook_url).toBeNull();
    // A payment's own webhook_url, by the same rules.
    const init = await prdCall('POST', '/api/v1/payments/init', { key: fullKey, body: paymentBody({ webhook_url: 'https://shop.localtest.me/hook' }) });
    expect(init.status).toBe(400);
    expect(init.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'webhook_url', message: expect.stringMatching(/localtest\.me/) }] });
  });

  it('refuses at connect time a name whose DNS answers an internal address: a failed attempt naming it, no request sent', async () => {
    const { port } = new URL(receiver.url);
    for (const host of ['hooks.rebound.example', 'hooks.mapped.example', 'hooks.v6.example']) {
      const m = await createMerchant(t, { webhookUrl: `https://${host}:${port}/hook` });
      await credit(t, m.id, 10_000);
      const { fullKey } = await prd.services.keys.issue(OPERATOR, m.id);
      expect((await prdCall('POST', '/api/v1/payouts', { key: fullKey, body: payoutBody(1_000) })).status).toBe(201);
      const [delivery] = await eventually(async () => {
        const found = await prd.services.webhookDeliveries.list(OPERATOR, { merchantId: m.id });
        return found.length > 0 && found[0]!.attempts > 0 ? found : null;
      });
      expect(delivery!.attemptLog[0], host).toMatchObject({ succeeded: false, statusCode: null, error: expect.stringMatching(new RegExp(`${host.replace(/\./g, '\\.')} resolves to a non-public address`)) });
    }
    expect(receiver.received).toHaveLength(0);
    // The service is unharmed and still answers.
    expect((await prdCall('GET', '/readyz')).status).toBe(200);
  });

  it('refuses a URL stored before these rules (a wildcard DNS name) at delivery, as a failed attempt', async () => {
    const m = await createMerchant(t);
    await sql`update merchants set webhook_url = 'https://127.0.0.1.nip.io/hook' where id = ${m.id}`.execute(t.database.db);
    await credit(t, m.id, 10_000);
    const { fullKey } = await prd.services.keys.issue(OPERATOR, m.id);
    expect((await prdCall('POST', '/api/v1/payouts', { key: fullKey, body: payoutBody(1_000) })).status).toBe(201);
    const [delivery] = await eventually(async () => {
      const found = await prd.services.webhookDeliveries.list(OPERATOR, { merchantId: m.id });
      return found.length > 0 && found[0]!.attempts > 0 ? found : null;
    });
    expect(delivery!.attemptLog[0]).toMatchObject({ succeeded: false, error: expect.stringMatching(/nip\.io, a wildcard DNS service/) });
  });
});
