import { describe, expect, it } from 'vitest';
import { httpCheck, instancesCheck, rssCheck, unrecordedWindows, webhookVerdict, type DeliveryRow } from '../bench/soak/checks.ts';
import type { Incarnation } from '../bench/soak/instances.ts';
import type { Outcome } from '../bench/soak/http.ts';
import type { Receipt } from '../bench/soak/receiver.ts';

/**
 * The soak's judgement (bench/soak, `npm run soak`), without a server: what it lets pass during
 * the kill and the cut, and what it must not. A soak that passed everything would prove nothing.
 */

const T = 1_800_000_000_000;
const killed = { name: 'A', killWindows: [{ from: T + 10_000, to: T + 12_000 }], cutWindows: [] };
const cut = { name: 'B', killWindows: [], cutWindows: [{ from: T + 20_000, to: T + 26_000, restoredAt: T + 25_000 }] };
const outcome = (o: Partial<Outcome>): Outcome => ({ at: T, ms: 5, instance: 'A', side: 'merchant', kind: 'rest.balance', status: 200, code: 'ok', ...o });

describe('the soak: HTTP outcomes', () => {
  it('lets pass a 503 from the cut instance during its cut, and a refused connection to the killed one during its kill', () => {
    const check = httpCheck(
      [
        outcome({ instance: 'B', at: T + 21_000, status: 503, code: 'SERVICE_UNAVAILABLE' }),
        // Sent before the cut, answered during it.
        outcome({ instance: 'B', at: T + 19_990, ms: 50, status: 503, code: 'SERVICE_UNAVAILABLE' }),
        outcome({ instance: 'A', at: T + 11_000, status: 0, code: 'ECONNREFUSED' }),
        // In flight when the process died.
        outcome({ instance: 'A', at: T + 9_990, ms: 20, status: 0, code: 'ECONNRESET' }),
        outcome({ instance: 'A', at: T + 30_000, status: 429, code: 'RATE_LIMIT_EXCEEDED', side: 'abuse' }),
      ],
      [killed, cut],
    );
    expect(check.ok).toBe(true);
  });

  it.each([
    ['a 500 during the cut', outcome({ instance: 'B', at: T + 21_000, status: 500, code: 'INTERNAL_ERROR' })],
    ['a 503 from the instance whose database was not cut', outcome({ instance: 'A', at: T + 21_000, status: 503, code: 'SERVICE_UNAVAILABLE' })],
    ['a 503 after the cut instance was ready again', outcome({ instance: 'B', at: T + 27_000, status: 503, code: 'SERVICE_UNAVAILABLE' })],
    ['a refused connection outside the kill', outcome({ instance: 'A', at: T + 13_000, status: 0, code: 'ECONNREFUSED' })],
    ['a refused connection to the instance not killed', outcome({ instance: 'B', at: T + 11_000, status: 0, code: 'ECONNREFUSED' })],
    ['a timeout, even during the kill', outcome({ instance: 'A', at: T + 11_000, status: 0, code: 'timeout' })],
    ['a 502 from abuse', outcome({ side: 'abuse', status: 502, code: 'no code' })],
  ])('fails on %s', (_name, bad) => {
    const check = httpCheck([outcome({}), bad], [killed, cut]);
    expect(check.ok).toBe(false);
    expect(check.lines.join('\n')).toContain('1 failed');
  });
});

describe('the soak: webhooks exactly once per delivery id', () => {
  const unrecorded = unrecordedWindows([killed, cut], 10_000);
  const event = (id: string) => ({ id, deliveries: 1 });
  const delivery = (id: string, d: Partial<DeliveryRow> = {}): DeliveryRow => ({ id: `d-${id}`, event_id: id, status: 'succeeded', successes: 1, answered: 1, unanswered: 0, ...d });
  const receipt = (id: string, at: number): Receipt => ({ id, at, shop: 'shop-1', verified: true });
  const verdict = (receipts: Receipt[], deliveries = [delivery('e1'), delivery('e2')], events = [event('e1'), event('e2')]) =>
    webhookVerdict({ events, deliveries, receipts, unrecorded, drained: true });

  it('passes once each, and a repeat of an attempt sent just before the kill or during the cut', () => {
    expect(verdict([receipt('e1', T), receipt('e2', T + 1)]).ok).toBe(true);
    // Sent by the killed instance a second before it died, sent again once its claim expired.
    expect(verdict([receipt('e1', T + 9_000), receipt('e1', T + 40_000), receipt('e2', T)]).ok).toBe(true);
    // Sent by the cut instance, whose outcome could not be written.
    expect(verdict([receipt('e1', T + 22_000), receipt('e1', T + 50_000), receipt('e2', T)]).ok).toBe(true);
  });

  it('fails on a repeat outside those windows, a missing event, an unsigned POST or a stray id', () => {
    expect(verdict([receipt('e1', T + 30_000), receipt('e1', T + 31_000), receipt('e2', T)]).ok).toBe(false);
    expect(verdict([receipt('e1', T)]).ok).toBe(false);
    expect(verdict([receipt('e1', T), { ...receipt('e2', T), verified: false }]).ok).toBe(false);
    expect(verdict([receipt('e1', T), receipt('e2', T), receipt('nope', T)]).ok).toBe(false);
  });

  it('fails on a delivery not succeeded, with two successes, or an event with two rows or none', () => {
    const both = [receipt('e1', T), receipt('e2', T)];
    expect(verdict(both, [delivery('e1'), delivery('e2', { status: 'pending', successes: 0 })]).ok).toBe(false);
    expect(verdict([...both, receipt('e2', T + 1)], [delivery('e1'), delivery('e2', { successes: 2, answered: 2 })]).ok).toBe(false);
    expect(verdict(both, [delivery('e1'), delivery('e2')], [event('e1'), { id: 'e2', deliveries: 2 }]).ok).toBe(false);
    expect(verdict(both, [delivery('e1')], [event('e1'), { id: 'e2', deliveries: 0 }]).ok).toBe(false);
  });

  it('counts a logged attempt without an answer as one the receiver may have seen', () => {
    const timedOut = delivery('e1', { answered: 1, unanswered: 1 });
    expect(verdict([receipt('e1', T + 30_000), receipt('e1', T + 31_000), receipt('e2', T)], [timedOut, delivery('e2')]).ok).toBe(true);
  });

  it('fails when the service logged more answers than the receiver gave', () => {
    expect(verdict([receipt('e1', T), receipt('e2', T)], [delivery('e1', { answered: 2 }), delivery('e2')]).ok).toBe(false);
  });

  it('fails when the queue was not drained', () => {
    expect(webhookVerdict({ events: [event('e1')], deliveries: [delivery('e1')], receipts: [receipt('e1', T)], unrecorded, drained: false }).ok).toBe(false);
  });
});

describe('the soak: memory and processes', () => {
  const incarnation = (mibs: number[], hwmMiB = Math.max(...mibs)): Incarnation => ({
    pid: 1,
    startedAt: T,
    rss: mibs.map((mib, k) => ({ at: T + k * 1_000, mib })),
    hwmMiB,
    cpuSeconds: 0,
  });
  const rss = (...incarnations: Incarnation[]) => rssCheck([{ name: 'A', incarnations }]);

  it('passes below 256 MiB, for every process of an instance', () => {
    expect(rss(incarnation([150, 180, 255.9]), incarnation([140, 200])).ok).toBe(true);
  });

  it('fails on one sample at 256 MiB, on a peak only the kernel saw, on a process never sampled', () => {
    expect(rss(incarnation([150, 256, 200])).ok).toBe(false);
    expect(rss(incarnation([150, 180], 300)).ok).toBe(false);
    expect(rss(incarnation([150]), { ...incarnation([1]), rss: [] }).ok).toBe(false);
  });

  it('fails on an exit the soak did not cause, or an instance not ready a minute after its database came back', () => {
    const instance = { name: 'A', unexpectedExits: [], killWindows: [], cutWindows: [], logPath: 'A.log' };
    expect(instancesCheck([instance]).ok).toBe(true);
    expect(instancesCheck([{ ...instance, unexpectedExits: [{ at: T, how: 'killed by SIGABRT' }] }]).ok).toBe(false);
    expect(instancesCheck([{ ...instance, cutWindows: [{ from: T, restoredAt: T + 5_000, to: T + 65_000 }] }]).ok).toBe(false);
  });
});
