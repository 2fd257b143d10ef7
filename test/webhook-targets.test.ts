import { describe, expect, it } from 'vitest';
import { isInternalAddress, webhookUrlProblem } from '../src/domain/webhook-url.ts';
import { guardedLookup, postWebhook } from '../src/outside/webhook-http.ts';
import { startReceiver } from './support/receiver.ts';

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
